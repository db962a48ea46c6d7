# torch.func.grad's docs example with has_aux and argnums (https://pytorch.org/docs/stable/generated/torch.func.grad.html)
from torch.func import grad
def my_loss_func(y, y_pred):
   loss_per_sample = (0.5 * y_pred - y) ** 2
   loss = loss_per_sample.mean()
   return loss, (y_pred, loss_per_sample)

fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
torch.manual_seed(0)
y_true = torch.rand(4)
y_preds = torch.rand(4, requires_grad=True)
out = fn(y_true, y_preds)
# > output is ((grads w.r.t y_true, grads w.r.t y_preds), (y_pred, loss_per_sample))
print(out)
print(out[0][1].requires_grad, out[1][1].grad_fn.name())
out[0][1].sum().backward()
print(y_preds.grad)
