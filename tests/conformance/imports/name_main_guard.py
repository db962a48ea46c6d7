# if __name__ == "__main__": runs, as in a script; __name__ is "__main__"
import torch.nn as nn
def main():
    torch.manual_seed(0)
    m = nn.Linear(2, 2)
    return m(torch.ones(2)).sum()
if __name__ == "__main__":
    out = main()
    print(__name__, out)
