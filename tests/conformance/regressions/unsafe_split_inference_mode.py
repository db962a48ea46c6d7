# unsafe_split/unsafe_chunk inside inference_mode are split's views made in inference mode (no autograd kernel runs there): a normal input gives normal-tensor views, and an in-place op on one outside is the inference-view error (generator finding, seed 2026120271)
x = torch.arange(4.0).requires_grad_()
y = torch.ones(4)
with torch.inference_mode():
    a = torch.unsafe_split(x, 2)[0]
    b = torch.unsafe_chunk(y, 2)[1]
    print(a.is_inference(), a._is_view(), a._base is x, b.is_inference(), b._is_view(), a.requires_grad)
print(torch.unsafe_split(y, 2)[0]._is_view(), torch.unsafe_split(x, 2)[0]._is_view(), torch.unsafe_split(x, 2)[0].grad_fn.name())
with torch.no_grad():
    c = torch.unsafe_split(x, 3)[1]
    print(c._is_view(), c.requires_grad)
c += 1
b += 1
