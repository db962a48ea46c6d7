# fuzz finding (test_fuzz_share seed 0 #154, seed 2 #207): an in-place op called with arguments it does not take
# was an internal error; PyTorch's argument parser raises TypeError (caught here, its message printed)
w = torch.randn(2)
for f in [lambda: w.arccos_(1, 2, 1), lambda: w.exp_(a=1), lambda: w.cumsum_(), lambda: w.logical_and_(9),
          lambda: w.logical_and_(other=len), lambda: w.logical_xor_(len)]:
    try:
        f()
    except TypeError as e:
        print('TypeError caught')
print(w.round_(decimals=1), w.nan_to_num_(0.0))
w.exp_(1)
