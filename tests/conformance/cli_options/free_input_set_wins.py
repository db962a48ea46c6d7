# gradcli: --set x=3.0 --requires-grad x
# a name given by --set is not a free input: --set's value is used
y = x ** 2
