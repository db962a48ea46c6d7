# a view of an inference tensor has no view metadata (no ADInplaceOrView key): _base None, _is_view() False, and an in-place op on it outside inference_mode after requires_grad_() is the leaf error, not the inference-view one (generator finding, seed 2026120206)
with torch.inference_mode():
    a = torch.arange(6.0)
    b = a.reshape(2, 3)
    c = a[1:]
    print(b._base is None, b._is_view(), c._base is None, c._is_view())
n = torch.ones(4)
with torch.inference_mode():
    v = n[1:]
    print(v._base is n, v._is_view(), v.is_inference())
with torch.inference_mode():
    x = torch.arange(0.0, 11.5, 1.0, dtype=torch.float64).reshape((3, 4)).requires_grad_()
x += 1
