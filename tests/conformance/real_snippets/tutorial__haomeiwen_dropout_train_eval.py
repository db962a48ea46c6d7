# source: https://haomeiwen.com/subject/zqjjzltx.html (Chinese note "Dropout解析": its IPython session In[5]-In[11] as a script, each displayed Out[] value printed; `import torch` and `import torch.nn as nn` added)
import torch
import torch.nn as nn
x=torch.rand(2,5)
print(x)
model = nn.Dropout(0.5)
print(model.train())
print(model(x))
print(model.eval())
print(model(x))
