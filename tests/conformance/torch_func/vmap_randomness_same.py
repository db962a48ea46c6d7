# randomness='same': every sample gets the same draws, and the generator moves on by one sample's draws
from torch.func import vmap
torch.manual_seed(0)
x = torch.zeros(3, 2)
print(vmap(lambda a: a + torch.rand(2), randomness='same')(x))
print(torch.rand(2))
