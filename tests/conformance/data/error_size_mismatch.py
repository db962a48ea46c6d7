# TensorDataset needs tensors of one first dimension: AssertionError "Size mismatch between tensors"
ds = torch.utils.data.TensorDataset(torch.ones(3, 2), torch.zeros(4))
