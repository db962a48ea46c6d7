# source: https://github.com/LoreGoetschalckx/GANalyze/issues/7 ("zero_grad is missing": the training loop of pytorch/train_pytorch.py before the fix, its resume branch left out; the generator, assessor and transformation are small nn.Linear stand-ins, frozen as in the file, the loss a mean squared error, and zs from torch.randn)
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
dim_z, num_samples, batch_size = 3, 8, 4
transformation = nn.Linear(dim_z, dim_z)
generator = nn.Linear(dim_z, 2)
for p in generator.parameters():
    p.requires_grad = False
assessor = nn.Linear(2, 1)
for p in assessor.parameters():
    p.requires_grad = False
optimizer = optim.Adam(transformation.parameters(), lr=0.0002)
zs = torch.randn(num_samples, dim_z)

# loop over data batches
for batch_start in range(0, num_samples, batch_size):
    z = zs[batch_start:batch_start + batch_size]
    gan_images = generator(z)
    out_scores = assessor(gan_images)
    target_scores = out_scores + 0.5
    z_transformed = transformation(z)
    gan_images_transformed = generator(z_transformed)
    out_scores_transformed = assessor(gan_images_transformed)
    loss = torch.mean((out_scores_transformed - target_scores) ** 2)
    loss.backward()
    optimizer.step()
