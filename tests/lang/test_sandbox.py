"""Known Python sandbox escapes: each is refused, and provably ran nothing.

Every attempt's payload, if it escaped, would create the sentinel file
(``SENTINEL``) through ``os``/``open``/``subprocess``, or set the flag in
:data:`sandbox_flag`.  After each run the sentinel must not exist, the flag
must be unset, and the run must have failed cleanly with a GradcliError kind
(no traceback) -- or, for the harmless-by-design cases (shadowing a builtin),
succeeded without touching anything.

A third sentinel sees what the first two cannot (an attempt that only *reaches* an object): a
``sys.addaudithook`` hook, armed only during each run, records every audited action of the process
-- starting processes, writing or deleting files, sockets, ``ctypes``, importing or executing code that
is not part of gradcli/numpy/Python's own installed files, ``sys._getframe``, tracing hooks ...; the
only events a run may raise are those of gradcli's own work (:func:`_allowed_event`), and each attempt
is followed by a ``print`` that must not appear (the run stopped at the attempt).
"""

from __future__ import annotations

import os
import sys
import types

import pytest

# a module an escape could reach through sys.modules and flip
sandbox_flag = types.ModuleType("gradcli_sandbox_flag")
sandbox_flag.HIT = False
sys.modules["gradcli_sandbox_flag"] = sandbox_flag


def payload(path: str) -> str:
    """What an escaped program would run: write the sentinel file and flip the flag."""
    return (
        f"open({path!r}, 'w').write('escaped'); "
        "__import__('sys').modules['gradcli_sandbox_flag'].HIT = True"
    )


ATTEMPTS = {
    # attribute chains to object internals
    "subclasses_chain": "x = ().__class__.__bases__[0].__subclasses__()\n",
    "tensor_class": "x = torch.ones(1)\ny = x.__class__.__mro__\n",
    "builtin_self": "m = print.__self__\n",
    "func_globals": "def f():\n    pass\ng = f.__globals__\n",
    "lambda_code": "c = (lambda: 0).__code__.co_consts\n",
    "namespace_dict": "d = torch.__dict__\n",
    "namespace_private": "n = torch._name\n",
    "class_getattribute": "x = torch.Tensor.__getattribute__\n",
    "gradcli_public_read": "p = torch._gradcli_public\n",
    "type_mro_method": "m = torch.Tensor.mro()\n",
    "func_globals_py2_name": "g = torch.tensor.func_globals\n",
    "engine_function_attr": "g = torch.tensor.__wrapped__\n",
    "property_object": "p = torch.Tensor.grad\nq = p.fget\n",
    "property_object_runtime": "p = torch.Tensor.grad\nq = p.getter\n",
    "type_attribute_runtime": "f = float.fromhex\n",
    "dict_fromkeys_huge": "f = dict.fromkeys(range(10 ** 10))\n",  # dict.fromkeys is bounded like list()
    "dict_fromkeys_huge_iterable": "f = dict.fromkeys(iter(range(10 ** 10)))\n",
    "dict_fromkeys_function_attr": "f = dict.fromkeys\ng = f.func_globals\n",
    "dict_other_type_attr": "f = dict.items\n",
    "str_maketrans": "f = str.maketrans\n",
    # format-string tricks
    "str_format_field": "s = '{0.__class__}'.format(1)\n",
    "str_format_map": "s = '{a}'.format_map({'a': 1})\n",
    "fstring_dunder": "x = 1\ns = f'{x.__class__}'\n",
    "fstring_huge_width": "s = f'{1:99999999999}'\n",
    # generators and frames
    "genexp_frame": "g = (i for i in [1])\nf = g.gi_frame.f_globals\n",
    "genexp_code": "g = (i for i in [1])\nc = g.gi_code\n",
    "genexp_send": "g = (i for i in [1])\ns = g.send\n",
    "genexp_throw": "g = (i for i in [1])\ns = g.throw\n",
    "frame_back": "f = f_back\n",
    # names that are not provided
    "eval": f"eval({payload('SENTINEL')!r})\n",
    "exec": f"exec({payload('SENTINEL')!r})\n",
    "compile": "c = compile('1', 'f', 'exec')\n",
    "open": "open('SENTINEL', 'w').write('escaped')\n",
    "dunder_import": "__import__('os').system('touch SENTINEL')\n",
    "globals": "g = globals()\n",
    "locals": "g = locals()\n",
    "vars": "g = vars()\n",
    "getattr": "g = getattr(print, '__self__')\n",
    "setattr": "setattr(torch, 'x', 1)\n",
    "builtins_name": "b = __builtins__\n",
    "type_three_args": "T = type('T', (), {})\n",
    "object_subclasses": "o = object.__subclasses__()\n",
    "breakpoint": "breakpoint()\n",
    "input": "x = input()\n",
    "super": "s = super()\n",
    # imports
    "import_os": "import os\nos.system('touch SENTINEL')\n",
    "import_subprocess": "import subprocess\n",
    "from_os": "from os import system\n",
    "star_import": "from torch import *\n",
    "import_alias_builtins": "import torch.utils.checkpoint as __builtins__\n",
    "import_in_def": "def f():\n    import os\n    return os\n",
    "import_sys_as_torch": "import sys as torch\n",
    "relative_import": "from . import run\n",
    # class / metaclass tricks
    "metaclass": "class A(torch.autograd.Function, metaclass=type):\n    pass\n",
    "class_body_code": "class A(torch.autograd.Function):\n    x = open('SENTINEL', 'w')\n",
    "class_classmethod_forward": ("class A(torch.autograd.Function):\n    @classmethod\n    def forward(cls, ctx):\n"
                                  "        pass\n"),
    # exceptions
    "try_except_traceback": "try:\n    1 / 0\nexcept Exception as e:\n    tb = e.__traceback__\n",
    "raise": "raise SystemExit\n",
    "with_traceback_attr": "w = (1).with_traceback\n",
    # lambda/default-argument and decorator tricks
    "lambda_default_builtin": "f = (lambda p=print: p.__self__)()\n",
    "lambda_default_eval": "f = (lambda e=eval: e('1'))()\n",
    "decorator_eval": "@eval\ndef f():\n    pass\n",
    "decorator_builtin_runtime": "@print\ndef f():\n    pass\n",
    "decorator_type_runtime": "@list\ndef f():\n    pass\n",
    "staticmethod_outside": "s = staticmethod(print)\n",
    # statements outside the subset
    "global": "def f():\n    global torch\n    torch = 1\n",
    "nonlocal": "def f():\n    x = 1\n    def g():\n        nonlocal x\n",
    "async": "async def f():\n    await g()\n",
    "yield": "def f():\n    yield open\n",
    "walrus": "y = (x := 1)\n",
    "match": "match 1:\n    case _:\n        pass\n",
    # private keyword arguments into engine functions
    "private_kwarg_static": "t = torch.ones(2, _internal=True)\n",
    "private_kwarg_runtime": "t = torch.ones(2, **{'_internal': True})\n",
    # unknown objects stay opaque
    "numpy_escape": "a = torch.ones(2).numpy()\na.tofile('SENTINEL')\n",
    "numpy_ctypes": "a = torch.ones(2).numpy()\nc = a.ctypes\n",
    "bound_method_self": "m = [].append\ns = m.__self__\n",
    "bound_method_runtime": "m = [].append\ns = m.text_signature\n",
    "user_function_attrs": "def f():\n    pass\nc = f.code\n",
    "range_attr": "r = range(3).__reduce__\n",
    # resource exhaustion
    "huge_int_pow": "x = 10 ** 10 ** 10\n",
    "huge_int_tower": "x = 9 ** 9 ** 9 ** 9\n",
    "huge_shift": "x = 1 << (1 << 40)\n",
    "huge_list": "x = [None] * (10 ** 12)\n",
    "huge_unpack": "print(*range(10 ** 12))\n",
    "infinite_loop": "while True:\n    pass\n",
    "infinite_recursion": "def f():\n    return f()\nf()\n",
    "range_contains_float": "x = 0.5 in range(10 ** 18)\n",
}

# --- issue 8: the escape suite grows past 100 ----------------------------------------------------------
# a custom Function whose forward/backward run FWD/BWD, applied to x; AFTER follows
_FN = "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        {fwd}\n        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n        {bwd}\n        return g\n"
def _fn(fwd="pass", bwd="pass", after=""):
    return _FN.format(fwd=fwd, bwd=bwd) + "x = torch.ones(2, requires_grad=True)\ny = A.apply(x)\n" + after


MORE_ATTEMPTS = {
    # --- attribute and subscript chains through the graph -------------------------------------------
    "grad_fn_variable_class": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nv = y.grad_fn.next_functions[0][0].variable\nc = v.__class__\n",
    "accumulate_grad_apply": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nn = y.grad_fn.next_functions[0][0]\nf = n.apply\n",
    "grad_fn_saved_private": "x = torch.ones(1, requires_grad=True)\ny = x * x\ns = y.grad_fn._saved\n",
    "grad_fn_saved_runtime": "x = torch.ones(1, requires_grad=True)\ny = x * x\ns = y.grad_fn.saved_tensors\n",
    "next_functions_tuple_self": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nt = y.grad_fn.next_functions\nm = t.count.__self__\n",
    "grad_fn_metadata_dict_walk": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nm = y.grad_fn.metadata\nk = m.fromkeys\n",
    "grad_fn_name_method_self": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nn = y.grad_fn.name\ns = n.self\n",
    "subscript_chain_formula": "x = torch.ones(1, requires_grad=True)\ny = x * 2\nf = y.grad_fn.formula\n",
    # --- ctx of custom Functions (dynamic attributes) --------------------------------------------------
    "ctx_dict": _fn(fwd="d = ctx.__dict__"),
    "ctx_forward_cls_runtime": _fn(fwd="c = ctx.forward_cls"),
    "ctx_set_private": _fn(fwd="ctx._forward_cls = None"),
    "ctx_class_runtime_getattr": _fn(fwd="c = ctx.getattr"),
    "ctx_saved_then_class": _fn(fwd="ctx.keep = ctx\n        k = ctx.keep.__class__"),
    "ctx_grad_fn_after": _fn(after="c = y.grad_fn.forward_cls\n"),
    "ctx_apply_overwrite": _fn(fwd="ctx.apply = print", after="y.sum().backward()\n"),
    "ctx_num_outputs_blowup": _fn(after="y.grad_fn.num_outputs = 10**12\ny.sum().backward()\n"),
    # --- NDArray, Size, dtype, hook handles -----------------------------------------------------------
    "ndarray_dump_file": "a = torch.ones(2).numpy()\na.dump('SENTINEL')\n",
    "ndarray_base": "a = torch.ones(2).numpy()\nb = a.base\n",
    "ndarray_data_memoryview": "a = torch.ones(2).numpy()\nm = a.data\n",
    "ndarray_private_array": "a = torch.ones(2).numpy()\nb = a._a\n",
    "ndarray_view_type": "a = torch.ones(2).numpy()\nv = a.view\n",
    "size_type_walk": "s = torch.ones(2, 3).shape\nt = s.__class__.__bases__\n",
    "size_runtime_attr": "s = torch.ones(2, 3).shape\nt = s.__getnewargs__\n",
    "size_copy_runtime": "s = torch.ones(2, 3).shape\nt = s.copy\n",
    "dtype_numpy_type": "d = torch.float32\nn = d.np\n",
    "dtype_type_call": "d = torch.float32\nc = d.to_numpy\n",
    "hook_handle_hooks": "x = torch.ones(1, requires_grad=True)\nh = x.register_hook(lambda g: g)\nd = h.hooks_dict_ref\n",
    "hook_handle_private": "x = torch.ones(1, requires_grad=True)\nh = x.register_hook(lambda g: g)\nd = h._hooks\n",
    "device_type_walk": "d = torch.ones(1).device\nc = d.type.__class__\n",
    "device_private_slot": "d = torch.device('cpu')\nc = d._type\n",
    "storage_internals": "s = torch.ones(2).untyped_storage()\nr = s._root\n",
    "storage_runtime_attr": "s = torch.ones(2).untyped_storage()\nr = s.root\n",
    "cuda_namespace_walk": "f = torch.cuda.is_available.__globals__\n",
    # --- decorators -----------------------------------------------------------------------------------
    "decorator_tensor_method": "@torch.Tensor.register_hook\ndef f():\n    pass\n",
    "decorator_list_append": "L = []\n@L.append\ndef f():\n    pass\n",
    "decorator_class_body_builtin": "class A(torch.autograd.Function):\n    @staticmethod\n    @open\n    def forward(ctx, a):\n        return a\n",
    "decorator_class_body_method": "class A(torch.autograd.Function):\n    @staticmethod\n    @torch.Tensor.numpy\n    def forward(ctx, a):\n        return a\n",
    "decorator_lambda_dunder": "@(lambda f: f.__globals__)\ndef f():\n    pass\n",
    # --- class bodies ---------------------------------------------------------------------------------
    "class_body_assign_builtin": "class A(torch.autograd.Function):\n    forward = print\n",
    "class_nested_class": "class A(torch.autograd.Function):\n    class B(torch.autograd.Function):\n        pass\n",
    "class_base_expression": "class A(torch.autograd.Function if True else object):\n    pass\n",
    "class_two_bases": "class A(torch.autograd.Function, torch.autograd.Function):\n    pass\n",
    "class_dunder_method": "class A(torch.autograd.Function):\n    @staticmethod\n    def __init_subclass__(cls):\n        pass\n",
    "class_as_context_manager": "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        return a\nwith A:\n    pass\n",
    "class_call_instance": "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        return a\na = A()\nb = a.__dict__\n",
    "function_base_three_args": "T = torch.autograd.Function('T', (), {})\n",
    "class_subclasses_of_base": "s = torch.autograd.Function.__subclasses__()\n",
    # --- f-strings and format -------------------------------------------------------------------------
    "fstring_spec_field": "x = 1\ns = f'{x:{\"{0.__class__}\"}}'\n",
    "fstring_spec_on_function": "spec = '{0.__globals__}'\ns = f'{print:{spec}}'\n",
    "fstring_tensor_spec": "s = f'{torch.ones(2):{\"{0.__class__}\"}}'\n",
    "format_builtin": "s = format(1, '')\n",
    "str_format_unbound": "f = str.format\n",
    "fstring_nested_width": "w = 10 ** 7\ns = f'{1:{w}}'\n",
    # --- exceptions and tracebacks --------------------------------------------------------------------
    "assert_message_code": "assert False, (lambda: 0).__code__\n",
    "exception_group": "try:\n    pass\nexcept* Exception:\n    pass\n",
    "raise_from": "raise SystemExit from None\n",
    # caught errors (issue 18): the object a handler binds exposes args only; tracebacks stay unreachable
    "caught_traceback": "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.sum().backward()\ntry:\n    y.sum().backward()\nexcept RuntimeError as e:\n    tb = e.__traceback__\n",
    "caught_context": "try:\n    1 / 0\nexcept Exception as e:\n    c = e.__context__\n",
    "caught_cause": "try:\n    [][0]\nexcept IndexError as e:\n    c = e.__cause__\n",
    "caught_dict": "try:\n    1 / 0\nexcept Exception as e:\n    d = e.__dict__\n",
    "caught_origin": "try:\n    1 / 0\nexcept Exception as e:\n    o = e._gradcli_origin\n",
    "caught_with_traceback": "try:\n    1 / 0\nexcept Exception as e:\n    w = e.with_traceback\n",
    "caught_add_note_runtime": "try:\n    1 / 0\nexcept Exception as e:\n    n = e.add_note\n",
    "caught_engine_fields_runtime": "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.sum().backward()\ntry:\n    y.sum().backward()\nexcept RuntimeError as e:\n    f = e.facts\n",
    "caught_hint_runtime": "try:\n    torch.ones(2, 2) @ torch.ones(3)\nexcept RuntimeError as e:\n    h = e.hint\n",
    "caught_args_class": "try:\n    1 / 0\nexcept Exception as e:\n    c = e.args.__class__\n",
    "exception_class_subclasses": "s = RuntimeError.__subclasses__()\n",
    "exception_class_mro_runtime": "m = Exception.mro\n",
    "exception_class_new": "n = ValueError.__new__\n",
    "except_base_exception": "try:\n    pass\nexcept BaseException:\n    pass\n",
    "except_system_exit": "try:\n    pass\nexcept SystemExit:\n    pass\n",
    "raise_base_exception": "raise BaseException\n",
    "raise_keyboard_interrupt": "raise KeyboardInterrupt\n",
    "raise_non_exception": "raise print\n",
    "except_non_class_runtime": "c = print\ntry:\n    1 / 0\nexcept c:\n    pass\n",
    "finally_swallows_limit": "def f():\n    try:\n        while True:\n            pass\n    finally:\n        return 1\nf()\n",
    "except_catches_limit": "try:\n    while True:\n        pass\nexcept Exception:\n    pass\n",
    "except_catches_recursion": "def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept Exception:\n    pass\n",
    "except_catches_unsupported": "try:\n    print('x', file=1)\nexcept Exception:\n    pass\n",
    "caught_huge_args_print": "e = RuntimeError([[0] * 10 ** 4] * 10 ** 4)\nprint(e)\n",
    "caught_nested_huge_args_str": "a = [[0] * 10 ** 4] * 10 ** 4\ne = RuntimeError(RuntimeError(a))\ns = str(e)\n",
    # the documented `_` attributes (issue 18): only the objects that define them answer, with plain values
    "private_saved_on_namespace": "p = torch._saved_self\n",
    "private_saved_on_function": "def f():\n    pass\np = f._saved_self\n",
    "private_raw_saved_internals": "x = torch.ones(1, requires_grad=True)\ny = x.exp()\nr = y.grad_fn._raw_saved_result\nn = r._node\n",
    "private_raw_saved_register_hooks": "x = torch.ones(1, requires_grad=True)\ny = x.exp()\nh = y.grad_fn._raw_saved_result.register_hooks\n",
    "private_version_write": "x = torch.ones(1)\nx._version = 5\n",
    "private_base_internals": "x = torch.ones(2)\nv = x[0]\nb = v._base._data\n",
    "private_saved_dunder": "x = torch.ones(1, requires_grad=True)\ny = x.exp()\nr = y.grad_fn._saved___class__\n",
    "private_is_view_self": "x = torch.ones(2)\nf = x._is_view.__self__\n",
    "private_version_on_exception": "try:\n    1 / 0\nexcept Exception as e:\n    v = e._version\n",
    "private_other_name": "x = torch.ones(2)\nv = x._grad_fn\n",
    "hook_error_object": "x = torch.ones(1, requires_grad=True)\nx.register_hook(lambda g: g.__traceback__)\n(x * 2).sum().backward()\n",
    # --- generators and frames ------------------------------------------------------------------------
    "genexp_suspended_runtime": "g = (i for i in [1])\nf = g.gi_suspended\n",
    "genexp_close_runtime": "g = (i for i in [1])\nc = g.close\n",
    "enumerate_frame": "e = enumerate([1])\nf = e.gi_frame\n",
    "zip_yieldfrom": "z = zip([1])\nf = z.gi_yieldfrom\n",
    "genexp_into_engine_hook": "x = torch.ones(1, requires_grad=True)\ng = (i for i in [1])\nx.register_hook(g)\n(x * 2).sum().backward()\n",
    # --- torch namespace walking ----------------------------------------------------------------------
    "torch_save_file": "x = torch.ones(2)\ntorch.save(x, 'SENTINEL')\n",
    "torch_load_file": "x = torch.load('SENTINEL')\n",
    "torch_from_numpy": "a = torch.ones(2).numpy()\nt = torch.from_numpy(a)\n",
    "torch_hub": "m = torch.hub.load('x', 'y')\n",
    "torch_jit": "f = torch.jit.script\n",
    "torch_ops_aten": "f = torch.ops.aten\n",
    "torch_autograd_graph_internals": "g = torch.autograd.graph.pack_hooks\n",
    "graph_node_subclasses": "s = torch.autograd.graph.Node.__subclasses__()\n",
    "graph_node_unbound_on_int": "f = torch.autograd.graph.Node.register_hook(1, print)\n",
    "saved_hooks_object_walk": "h = torch.autograd.graph.saved_tensors_hooks(print, print)\nf = h.pack_hook.__self__\n",
    "saved_hooks_unpack_engine_object": "x = torch.ones(1, requires_grad=True)\nwith torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: print):\n    y = x * x\ny.sum().backward()\n",
    "saved_hooks_packed_private": "x = torch.ones(1, requires_grad=True)\nwith torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p):\n    y = x * x\ns = y.grad_fn._saved\n",
    "saved_hooks_enter_result": "h = torch.autograd.graph.saved_tensors_hooks(print, print)\nwith h as r:\n    c = r.__class__\n",
    "multi_grad_handle_internals": "x = torch.ones(1, requires_grad=True)\nh = torch.autograd.graph.register_multi_grad_hook([x], print)\nhs = h.handles\n",
    "multi_grad_hook_grads_list_walk": "x = torch.ones(1, requires_grad=True)\ntorch.autograd.graph.register_multi_grad_hook([x], lambda gs: gs.__class__)\n(x * 2).sum().backward()\n",
    "node_hook_returns_builtin": "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.grad_fn.register_hook(lambda gi, go: (print, None))\ny.sum().backward()\n",
    "node_prehook_args_walk": "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.grad_fn.register_prehook(lambda go: go.count.__self__)\ny.sum().backward()\n",
    "torch_utils_cpp_extension": "e = torch.utils.cpp_extension\n",
    "torch_namespace_overwrite": "torch.ones = print\n",
    "torch_namespace_overwrite_nested": "torch.autograd.grad = print\n",
    "torch_tensor_unbound_method_private": "f = torch.Tensor._from_data\n",
    "torch_tensor_unbound_on_int": "f = torch.Tensor.register_hook(1, print)\n",
    "torch_function_globals": "g = torch.ones.__globals__\n",
    "torch_checkpoint_internals": "c = torch.utils.checkpoint.CheckpointFunction\n",
    "F_module_walk": "m = F.relu.__module__\n",
    # --- type and metaclass tricks --------------------------------------------------------------------
    "int_type_classmethod": "f = int.from_bytes\n",
    "bool_type_mro_runtime": "m = bool.mro\n",
    "isinstance_type_tuple_walk": "t = (int, float)\nb = t[0].__base__\n",
    "list_type_attr": "a = list.append\n",
    "float_hex_instance": "h = (1.5).hex\n",
    "type_of_tensor_dtype": "t = type(torch.float32).np\n",
    # type(obj) (lang/type_builtin.py) returns only classes a file can name: nothing else, nothing more
    "type_of_type": "t = type(type(1))\n",
    "type_of_class_metaclass": "import torch.nn as nn\nt = type(nn.Linear)\n",
    "type_of_tensor_class": "t = type(torch.Tensor)\n",
    "type_of_function": "def f():\n    pass\nt = type(f)\n",
    "type_of_lambda": "t = type(lambda: 0)\n",
    "type_of_builtin": "t = type(print)\n",
    "type_of_none": "t = type(None)\n",
    "type_of_namespace": "t = type(torch)\n",
    "type_of_grad_fn": "y = torch.ones(1, requires_grad=True) * 2\nt = type(y.grad_fn)\n",
    "type_of_hook_handle": "h = torch.ones(1, requires_grad=True).register_hook(print)\nt = type(h)\n",
    "type_of_generator": "g = (i for i in [1])\nt = type(g)\n",
    "type_of_list_iterator": "t = type(iter([1]))\n",
    "type_of_bound_method": "t = type(torch.ones(1).add)\n",
    "type_keyword": "t = type(object=1)\n",
    "type_two_args": "t = type('T', ())\n",
    "type_of_tensor_private": "t = type(torch.ones(1))._from_data\n",
    "type_of_tensor_runtime_attr": "n = '_from_data'\nt = getattr(type(torch.ones(1)), n)\n",
    "type_of_tensor_mro": "t = type(torch.ones(1)).mro()\n",
    "type_of_int_classmethod": "f = type(1).from_bytes\n",
    "type_of_list_method": "f = type([]).append\n",
    "range_type_call": "r = range.__new__\n",
    # --- builtins shadowing ---------------------------------------------------------------------------
    "shadow_builtins_dict": "__builtins__ = {}\n",
    "shadow_then_dunder_import": "print = 1\n__import__('os')\n",
    "builtins_subscript": "b = __builtins__['eval']\n",
    # --- huge integers and recursion ------------------------------------------------------------------
    "huge_int_square_loop": "x = 2\nfor i in range(40):\n    x = x * x\n",
    "huge_int_str_digits": "s = str(10 ** 5000)\n",
    "huge_int_float": "f = float(10 ** 400)\n",
    "huge_int_tensor": "t = torch.tensor(10 ** 100)\n",
    "huge_int_shape": "t = torch.ones(2 ** 62)\n",
    "huge_int_shape_product": "t = torch.ones(2 ** 31, 2 ** 31)\n",
    "huge_string_repeat": "s = 'a' * 10 ** 10\n",
    "huge_list_doubling": "L = [0]\nfor i in range(64):\n    L.extend(L)\n",
    "huge_str_replace_doubling": "s = 'a' * 1000\nfor i in range(40):\n    s = s.replace('a', 'aa')\n",
    "huge_join": "s = ','.join(['a' * 10 ** 7] * 10 ** 3)\n",
    "huge_tolist": "L = torch.ones(10 ** 8).tolist()\n",
    "recursion_lambda": "f = lambda n: f(n + 1)\nf(0)\n",
    "recursion_mutual": "def a(n):\n    return b(n)\ndef b(n):\n    return a(n)\na(0)\n",
    "recursion_via_hook": "x = torch.ones(1, requires_grad=True)\ndef hook(g):\n    with torch.enable_grad():\n        (x * 1).sum().backward()\nh = x.register_hook(hook)\n(x * 1).sum().backward()\n",
    "recursion_via_min_key": "def f(v):\n    return min([v], key=f)\nf(1)\n",
    "nested_tuple_hash": "t = ()\nfor i in range(10 ** 6):\n    t = (t,)\nd = {t: 1}\n",
    "nested_dict_repr": "d = {}\nfor i in range(10 ** 6):\n    d = {'a': d}\ns = str(d)\n",
    # unicode: identifiers are NFKC-normalised by the parser, before the check sees them
    "unicode_fullwidth_eval": "\uff45\uff56\uff41\uff4c('1')\n",
    "unicode_fullwidth_dunder_import": "__\uff49\uff4d\uff50\uff4f\uff52\uff54__('os')\n",
    "unicode_fullwidth_mro": "m = torch.Tensor.\uff4d\uff52\uff4f()\n",
    "unicode_fullwidth_self": "s = print.__\uff53\uff45\uff4c\uff46__\n",
    "exponential_graph_diamond_backward": "x = torch.ones(1, requires_grad=True)\ny = x\nfor i in range(10 ** 6):\n    y = y + y\n",
}
ATTEMPTS.update(MORE_ATTEMPTS)
# --- SPEC §2b: imports, nn.Module, the file's own classes ---------------------------------------------
_NET = ("class N(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n"
        "    def forward(self, x):\n        return self.fc(x)\nm = N()\n")
_IMPORT_NN = "import torch.nn as nn\n"
V2_ATTEMPTS = {
    "module_dict": _IMPORT_NN + _NET + "d = m.__dict__\n",
    "module_class": _IMPORT_NN + _NET + "c = m.__class__\n",
    "module_private_store": _IMPORT_NN + _NET + "d = m._modules\n",
    "module_private_getattr": _IMPORT_NN + _NET + "d = getattr(m, '_modules')\n",
    # a file's own `_` names run (self._layer2_fn); the engine's stay out of reach even when the file
    # names them itself
    "module_private_assigned_before_init": _IMPORT_NN + (
        "class N(nn.Module):\n    def __init__(self):\n        self._modules = 5\n        super().__init__()\n"
        "m = N()\nd = m._modules\n"),
    "module_private_assigned_after_init": _IMPORT_NN + _NET + "m._parameters = {}\nd = m._parameters\n",
    "module_private_method_shadow": _IMPORT_NN + (
        "class N(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "    def _modules(self):\n        return 1\nm = N()\nd = m._modules\n"),
    "module_private_engine_method": _IMPORT_NN + (
        "class N(nn.Module):\n    def _get_name(self):\n        return 1\nm = N()\nd = m._get_name\n"),
    "module_private_engine_class_attr": _IMPORT_NN + (
        "class N(nn.Module):\n    _version = 1\n    def _apply(self, fn):\n        return fn\nd = N._apply\n"),
    "module_private_file_record": _IMPORT_NN + _NET + "m._x = 1\nd = m._gradcli_file_attrs\n",
    "plain_private_engine_name": "class E:\n    pass\ne = E()\ne._gradcli_public = 1\n",
    "tensor_private_assigned": "t = torch.ones(1)\nt._grad = 1\nd = t._grad\n",
    "module_private_getattr_default": _IMPORT_NN + _NET + "d = getattr(m, '_parameters', None)\n",
    "module_private_hasattr": _IMPORT_NN + _NET + "d = hasattr(m, '_forward_hooks')\n",
    "module_type_builtin": _IMPORT_NN + _NET + "t = type(m).__dict__\n",
    "module_type_mro": _IMPORT_NN + _NET + "t = type(m).__mro__\n",
    "module_type_mro_method": _IMPORT_NN + _NET + "t = type(m).mro()\n",
    "module_type_bases_getattr": _IMPORT_NN + _NET + "t = getattr(type(m), '__bases__')\n",
    "module_type_private": _IMPORT_NN + _NET + "t = type(m)._gradcli_user_class\n",
    "module_type_of_method": _IMPORT_NN + _NET + "t = type(m.forward)\n",
    "module_type_of_parameters_generator": _IMPORT_NN + _NET + "t = type(m.parameters())\n",
    "module_type_of_type": _IMPORT_NN + _NET + "t = type(type(m))\n",
    "module_type_subclasses": _IMPORT_NN + _NET + "t = type(m.fc).__subclasses__()\n",
    "module_setattr_private": _IMPORT_NN + _NET + "m._parameters = {}\n",
    "module_gate_hook_name": _IMPORT_NN + _NET + "g = m.gradcli_getattr\n",
    "module_method_func": _IMPORT_NN + _NET + "f = m.forward.__func__\n",
    "module_bound_method_runtime": _IMPORT_NN + _NET + "f = m.forward.fn\n",
    "module_engine_method_self": _IMPORT_NN + _NET + "f = m.parameters.__self__\n",
    "module_engine_method_runtime": _IMPORT_NN + _NET + "f = m.parameters.im_func\n",
    "module_generator_frame": _IMPORT_NN + _NET + "g = m.parameters()\nf = g.gi_frame\n",
    "module_generator_runtime": _IMPORT_NN + _NET + "g = m.parameters()\nf = g.send\n",
    "module_class_mro": _IMPORT_NN + _NET + "c = N.__mro__\n",
    "module_class_subclasses": "import torch.nn as nn\ns = nn.Module.__subclasses__()\n",
    "module_class_dict_runtime": _IMPORT_NN + _NET + "c = N.mro\n",
    "module_init_unbound": "import torch.nn as nn\nf = nn.Module.__init__\n",
    "module_call_dunder": _IMPORT_NN + _NET + "f = m.__call__\n",
    "module_state_dict_fromkeys": _IMPORT_NN + _NET + "sd = m.state_dict()\nf = sd.fromkeys\n",
    "module_named_modules_memo": _IMPORT_NN + _NET + "g = m.named_modules\nc = g.__code__\n",
    "super_thisclass": _IMPORT_NN + _NET + "s = super(N, m).__thisclass__\n",
    "super_self_class": _IMPORT_NN + _NET + "s = super(N, m)\nc = s.__self_class__\n",
    "super_private_runtime": _IMPORT_NN + _NET + "s = super(N, m)\nc = s.x\n",
    "super_init_self": _IMPORT_NN + _NET + "s = super(N, m).__init__.__self__\n",
    "super_outside_method": "s = super()\n",
    "super_wrong_object": _IMPORT_NN + _NET + "s = super(N, 1)\n",
    "parameter_class": "import torch.nn as nn\np = nn.Parameter(torch.ones(2))\nc = p.__class__.__bases__\n",
    "class_getattribute_method": "class A:\n    def __getattribute__(self, n):\n        return 1\n",
    "class_getattr_method": "class A:\n    def __getattr__(self, n):\n        return 1\n",
    "class_setattr_method": "class A:\n    def __setattr__(self, n, v):\n        pass\n",
    "class_init_subclass": "class A:\n    def __init_subclass__(cls):\n        pass\n",
    "class_reduce": "class A:\n    def __reduce__(self):\n        return (print, ())\n",
    "class_del": "class A:\n    def __del__(self):\n        pass\n",
    "class_slots_attr": "class A:\n    __slots__ = ()\n",
    "class_dunder_assign": "class A:\n    __getattr__ = print\n",
    "class_protocol_attr": "class A:\n    _gradcli_public = frozenset({'x'})\n",
    "class_protocol_method": "class A:\n    def _gradcli_getattr(self, name):\n        return name\n",
    "class_metaclass": "class A(metaclass=type):\n    pass\n",
    "class_base_tensor": "class T(torch.Tensor):\n    pass\n",
    "class_base_builtin": "class L(list):\n    pass\n",
    "class_base_function_namespace": "class M(torch.nn):\n    pass\n",
    "class_base_print": "class P(print):\n    pass\n",
    "class_type_attribute_set": "class A:\n    pass\nA.x = 1\n",
    "class_instance_dict": "class A:\n    pass\na = A()\nd = a.__dict__\n",
    "class_instance_weakref": "class A:\n    pass\na = A()\nd = a.__weakref__\n",
    "class_property_fget": "class A:\n    @property\n    def p(self):\n        return 1\nf = A.p.fget\n",
    "class_property_runtime": "class A:\n    @property\n    def p(self):\n        return 1\nf = A.p.getter\n",
    "class_method_runtime": "class A:\n    def f(self):\n        return 1\na = A()\ng = a.f.self\n",
    "class_staticmethod_object": "class A:\n    @staticmethod\n    def f():\n        return 1\ng = A.f.code\n",
    "import_numpy": "import numpy as np\n",
    "import_math_internals": "import math\nl = math.__loader__\n",
    "import_math_private": "from math import _x\n",
    "import_torch_private": "from torch import _C\n",
    "import_torch_missing": "from torch import hub\n",
    "import_torch_submodule_missing": "import torch.distributed\n",
    "import_future": "from __future__ import annotations\n",
    "import_relative_torch": "from .torch import nn\n",
    "math_function_self": "import math\ns = math.sqrt.__self__\n",
    "math_function_runtime": "import math\ns = math.sqrt.text_signature\n",
    "math_factorial_huge": "import math\nx = math.factorial(10 ** 7)\n",
    "math_prod_huge": "import math\nx = math.prod(range(1, 10 ** 12))\n",
    "str_format_attribute": "s = '{0.real}'.format(1)\n",
    "str_format_index": "s = '{0[0]}'.format([1])\n",
    "str_format_nested_attr": "s = '{:{0.real}}'.format(1)\n",
    "str_format_keyword_attr": "s = '{x.__class__}'.format(x=1)\n",
    "str_format_huge_width": "s = '{:999999999}'.format(1)\n",
    "percent_huge_width": "s = '%999999999d' % 1\n",
    "percent_huge_star_width": "s = '%*d' % (10 ** 9, 1)\n",
    "str_ljust_huge": "s = 'a'.ljust(10 ** 12)\n",
    "sorted_huge_range": "s = sorted(range(10 ** 12))\n",
    "set_huge_range": "s = set(range(10 ** 12))\n",
    "any_infinite_range": "a = any(x < 0 for x in range(10 ** 18))\n",
    "all_range_c_loop": "a = all(range(1, 10 ** 18))\n",
    "map_infinite": "m = list(map(abs, range(10 ** 18)))\n",
    "getattr_dunder_string": "g = getattr(torch, '__dict__')\n",
    "hasattr_private_string": "h = hasattr(torch, '_name')\n",
    "del_builtin_then_dunder": "del print\n__import__('os')\n",
    "del_private_attr": "x = torch.ones(1)\ndel x._data\n",
    # setattr / delattr (SPEC §2b real code: the forward-AD tutorial) are exactly ``obj.name = v`` / ``del obj.name``
    "setattr_dunder_string": "x = torch.ones(1)\nsetattr(x, '__class__', int)\n",
    "setattr_private_string": "x = torch.ones(1)\nsetattr(x, '_data', None)\n",
    "setattr_module_private": _IMPORT_NN + _NET + "setattr(m, '_modules', {})\n",
    "setattr_namespace_member": "setattr(torch, 'ones', print)\n",
    "setattr_builtin_function": "setattr(print, 'x', 1)\n",
    "setattr_class_attribute": _IMPORT_NN + "setattr(nn.Linear, 'forward', print)\n",
    "setattr_non_string": "x = torch.ones(1)\nsetattr(x, 1, 2)\n",
    "delattr_dunder_string": "x = torch.ones(1)\ndelattr(x, '__class__')\n",
    "delattr_private_string": "delattr(torch, '_C')\n",
    "delattr_namespace_member": "delattr(torch, 'ones')\n",
    "delattr_ctx_api": ("class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
                        "        delattr(ctx, 'save_for_backward')\n        return x\n"
                        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
                        "y = F.apply(torch.ones(1, requires_grad=True))\n"),
    "del_namespace_member": "del torch.ones\n",
    "module_recursion": (
        "import torch.nn as nn\nclass R(nn.Module):\n    def forward(self, x):\n        return self(x)\n"
        "r = R()\nr(torch.ones(1))\n"
    ),
    "module_holds_itself_print": "import torch.nn as nn\nm = nn.Sequential()\nm.me = m\nprint(m)\n",
    "module_holds_itself_train": "import torch.nn as nn\nm = nn.Sequential()\nm.me = m\nm.train()\n",
    # out= (ops/out.py) writes only into a gradcli tensor
    "out_kwarg_function": "def f():\n    pass\ny = torch.add(torch.ones(1), 1, out=f)\n",
    "out_kwarg_namespace": "y = torch.exp(torch.ones(1), out=torch)\n",
    "out_kwarg_wrapped": "g = torch.add.__wrapped__\n",
}
# the rest of torch.nn (issue 17 part B): layers with class-level kernels and saved arguments
_CONV = _IMPORT_NN + "c = nn.Conv2d(1, 2, 3)\n"
_POOL = _IMPORT_NN + "p = nn.MaxPool2d(2)\n"
V2_ATTEMPTS.update({
    "conv_kernel_attr": _CONV + "f = c._fn\n",
    "conv_class_kernel_getattr": _CONV + "f = getattr(nn.Conv2d, '_fn')\n",
    "conv_forward_func": _CONV + "f = c._conv_forward.__func__\n",
    "conv_reset_self": _CONV + "f = c.reset_parameters.__self__\n",
    "conv_padding_private": _CONV + "f = c._reversed_padding_repeated_twice\n",
    "conv_class_mro": _IMPORT_NN + "m = nn.Conv2d.__mro__\n",
    "conv_functional_globals": "g = F.conv2d.__globals__\n",
    "conv_huge_output": "w = torch.ones(1, 1, 1, 1)\ny = F.conv2d(torch.ones(1, 1, 1, 1), w, padding=10 ** 5)\n",
    "conv_grad_fn_params": _CONV + "y = c(torch.ones(1, 1, 3, 3))\nq = y.grad_fn.params\n",
    "pool_forward_fn": _POOL + "f = p._fn\n",
    "pool_functional_code": "g = F.max_pool2d.__code__\n",
    "pad_huge": "y = F.pad(torch.ones(1), (10 ** 12, 0))\n",
    "dropout_kernel_attr": _IMPORT_NN + "d = nn.Dropout()\nf = d._fn\n",
    "dropout_generator_reach": "import torch.nn.functional as G\ng = G.dropout.__globals__\n",
    "embedding_renorm_func": _IMPORT_NN + "e = nn.Embedding(3, 2)\nf = e.from_pretrained.__func__\n",
    "embedding_fill_private": _IMPORT_NN + "e = nn.Embedding(3, 2)\ne._fill_padding_idx_with_zero()\n",
    "embedding_huge": "w = torch.ones(2, 10 ** 6)\ny = F.embedding(torch.zeros(10 ** 6, dtype=torch.long), w)\n",
    "batchnorm_node_stats": _IMPORT_NN + "b = nn.BatchNorm1d(2)\ny = b(torch.ones(3, 2, requires_grad=True))\n"
                            "m = y.grad_fn.invstd\n",
    "batchnorm_check_private": _IMPORT_NN + "b = nn.BatchNorm1d(2)\nb._check_input_dim(torch.ones(2, 2))\n",
    "layernorm_class_dict": _IMPORT_NN + "d = nn.LayerNorm.__dict__\n",
    "rnn_flat_weights_private": _IMPORT_NN + "r = nn.RNN(2, 2)\nw = r._flat_weights\n",
    "rnn_node_cache": _IMPORT_NN + "l = nn.LSTM(2, 2)\no, h = l(torch.ones(3, 1, 2, requires_grad=True))\n"
                      "c = o.grad_fn.cache\n",
    "rnn_forward_globals": _IMPORT_NN + "g = nn.GRU(2, 2).forward.__globals__\n",
    "rnn_cell_huge": _IMPORT_NN + "c = nn.RNNCell(1, 10 ** 6)\n",
    "unsafe_chunk_base": "p = torch.ones(4).unsafe_chunk(2)\nb = p[0]._base._data\n",
    "bilinear_node_saved_private": _IMPORT_NN + "b = nn.Bilinear(1, 1, 1)\ny = b(torch.ones(1, 1), torch.ones(1, 1))\n"
                                   "s = y.grad_fn._saved\n",
})
# torch.func (SPEC §2b): the transforms, the functions they return (grad(f), vjp_fn) and functional_call's names
_VJP = "o, f = torch.func.vjp(torch.sin, torch.ones(2))\n"
V2_ATTEMPTS.update({
    "func_grad_globals": "from torch.func import grad\ng = grad(torch.sin).__globals__\n",
    "func_grad_closure": "g = torch.func.grad(torch.sin).__closure__\n",
    "func_grad_wrapper_runtime": "g = torch.func.grad(torch.sin)\nc = g.gi_frame\n",
    "func_grad_wrapper_wrapped": "g = torch.func.grad_and_value(torch.sin)\nc = g.func\n",
    "func_vjp_fn_code": _VJP + "c = f.__code__\n",
    "func_vjp_fn_runtime": _VJP + "c = f.func_globals\n",
    "func_vjp_fn_defaults": _VJP + "c = f.__defaults__\n",
    "func_vjp_fn_type": _VJP + "c = type(f)\n",
    "func_namespace_private": "m = torch.func._lazy\n",
    "func_namespace_module": "import torch.func as tf\nm = tf.grad.__module__\n",
    "func_grad_of_getattr": "n = '_' + 'data'\ng = torch.func.grad(getattr, argnums=0)(torch.ones(()), n)\n",
    "func_call_private_name": "m = torch.nn.Linear(1, 1)\n"
                              "y = torch.func.functional_call(m, {'_parameters': torch.ones(1)}, torch.ones(1))\n",
    "func_call_private_path": "m = torch.nn.Linear(1, 1)\nk = '_' + 'modules.w'\n"
                              "y = torch.func.functional_call(m, {k: torch.ones(1)}, torch.ones(1))\n",
    "func_call_dunder_name": "m = torch.nn.Linear(1, 1)\nk = '_' + '_class__'\n"
                             "y = torch.func.functional_call(m, {k: torch.ones(1)}, torch.ones(1))\n",
    "func_linearize_jvp_fn_code": "o, f = torch.func.linearize(torch.sin, torch.ones(2))\nc = f.__code__\n",
    "func_linearize_jvp_fn_runtime": "o, f = torch.func.linearize(torch.sin, torch.ones(2))\nc = f.func_closure\n",
    "func_linearize_jvp_fn_getattr": "o, f = torch.func.linearize(torch.sin, torch.ones(2))\n"
                                     "c = getattr(f, 'cell' + '_contents')\n",
    "func_vmap_wrapper_globals": "v = torch.func.vmap(torch.sin)\ng = v.__globals__\n",
    "func_vmap_wrapper_runtime": "v = torch.vmap(torch.sin)\ng = v.gi_code\n",
    "func_jacrev_wrapper_closure": "j = torch.func.jacrev(torch.sin)\nc = j.__closure__\n",
    "func_jacfwd_wrapper_runtime": "j = torch.func.jacfwd(torch.sin)\nc = j.func_code\n",
    "func_hessian_wrapper_dict": "h = torch.func.hessian(torch.sin)\nd = h.__dict__\n",
    "func_vmap_of_getattr": "n = '_' + 'data'\ny = torch.func.vmap(getattr, in_dims=(0, None))(torch.ones(2, 1), n)\n",
    "func_vmap_huge_batch": "y = torch.func.vmap(torch.sin)(torch.ones(10 ** 9, 1))\n",
})
ATTEMPTS.update(V2_ATTEMPTS)

# cases that are valid gradcli programs and harmless by construction
HARMLESS = {
    # PyTorch's print options are the run's own (reset before each run); printing stays bounded by --max-output
    "torch_set_printoptions_threshold": "torch.set_printoptions(threshold=10**12)\nprint(torch.zeros(3000))\n",
    # PyTorch calls a Function's methods through the class: a def without @staticmethod runs as one
    "class_non_static": "class A(torch.autograd.Function):\n    def forward(ctx):\n        pass\n",
    "shadow_print": "print = lambda *a: None\nprint('hidden')\n",
    "shadow_torch": "torch = 5\nx = torch + 1\n",
    "shadow_len": "def len(x):\n    return 42\ny = len([1])\n",
    "open_user_function": "def open(p, mode):\n    return p\nf = open('SENTINEL', 'w')\n",
    "shadow_torch_then_import": "torch = {'autograd': 1}\nimport torch.utils.checkpoint as c\nf = c.checkpoint\n",
    "user_function_named_eval": "def eval(s):\n    return s\ny = eval(\"open('SENTINEL', 'w')\")\n",
    "class_private_method_names": (
        "class A(torch.autograd.Function):\n    @staticmethod\n    def _gradcli_settable(ctx):\n        return 1\n"
        "    @staticmethod\n    def _backward_cls(ctx):\n        return 1\n    @staticmethod\n"
        "    def forward(ctx, a):\n        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return g\nx = torch.ones(2, requires_grad=True)\nA.apply(x).sum().backward()\n"
    ),
    "repr_of_objects": "s = f'{torch!r} {F!r} {print!r} {torch.float32!r} {(lambda: 0)!r}'\nprint(s)\n",
    "private_documented_reads": (
        "x = torch.ones(2, requires_grad=True)\ny = x.exp()\nv = y[1:]\n"
        "print(x._version, v._base is y, v._is_view(), y.grad_fn._saved_result.shape, y.grad_fn._raw_saved_result)\n"
        "y.grad_fn.metadata['k'] = 1\nprint(y.grad_fn.metadata, y.grad_fn.name())\n"
    ),
    "caught_args_are_text": (
        "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.sum().backward()\ntry:\n    y.sum().backward()\n"
        "except RuntimeError as e:\n    a = e.args\n    print(len(a), a[0][:8], isinstance(e, Exception))\n"
        "try:\n    raise KeyError(x)\nexcept KeyError as e:\n    print(e.args[0] is x)\n"
    ),
    # SPEC §2b made these language: they stay harmless
    "str_format_indirect": "f = 'x'.format\ns = f(1)\n",
    "percent_format": "s = '%s' % (1,)\n",
    "percent_mapping": "s = '%(a)s' % {'a': 1}\n",
    "plain_class": "class A:\n    pass\n",
    "del": "del torch\n",
    "next_builtin": "g = (i for i in [1])\nv = next(g)\n",
    "iter_builtin": "i = iter([1])\n",
    "torch_tensor_type_call": "t = torch.Tensor(1)\n",
    "ctx_name_attribute": (
        "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        ctx.name = 'mine'\n"
        "        return a * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "x = torch.ones(2, requires_grad=True)\ny = A.apply(x)\ny.sum().backward()\nprint(y.grad_fn.name)\n"
    ),
}


# --- the audit-hook sentinel --------------------------------------------------------------------------
_SRC = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))
_INSTALLED = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, _SRC)})
_AUDIT: dict = {"armed": False, "file": None, "events": []}


def _installed(path) -> bool:
    return isinstance(path, str) and os.path.realpath(path).startswith(_INSTALLED)


def _allowed_event(event: str, args: tuple, filename: str) -> bool:
    """The audit events of gradcli's own work during a run (observed; everything else is a side effect).

    Parsing the file (``compile`` of the run's file name), ``id()``, the ``RLIMIT_DATA`` backstop, reading
    ``/proc/self`` for live memory and installed files for lazy imports, gradcli's own traceback walk.
    """
    if event in ("builtins.id", "resource.setrlimit", "resource.getrlimit", "object.__getattr__",
                 "os.listdir", "os.scandir", "sys._getframemodulename"):
        return True
    if event == "compile":
        return len(args) > 1 and args[1] in (filename, "<unknown>")
    if event == "open":
        path, mode = args[0], args[1]
        read_only = mode is None or (isinstance(mode, str) and not set(mode) & set("wax+"))
        flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
        read_only = read_only and not flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC)
        return read_only and (isinstance(path, int) or _installed(path) or str(path).startswith("/proc/self/"))
    if event == "import":
        return args[0].split(".")[0] in ("gradcli", "numpy", "rich", "typer", "click") or \
            args[0].split(".")[0] in sys.stdlib_module_names
    if event == "exec":
        code = args[0]
        return isinstance(code, types.CodeType) and _installed(code.co_filename)
    if event in ("marshal.loads", "os.stat"):
        return True
    return False


def _audit(event: str, args: tuple) -> None:
    if _AUDIT["armed"] and not _allowed_event(event, args, _AUDIT["file"]):
        _AUDIT["events"].append((event, repr(args)[:200]))


sys.addaudithook(_audit)  # cannot be removed: disarmed outside the runs of this module (a flag test)

#: printed after each attempt: it must never appear (the run stopped at the attempt)
AFTER = "print('the attempt did not stop the run')\n"


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """Run every program once, disarmed: the lazy imports of gradcli and the standard library (which
    compile and exec their own code, e.g. ``namedtuple``) happen here, so the armed runs see only the
    program's own events."""
    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import run_file

    folder = tmp_path_factory.mktemp("warm")
    for src in list(ATTEMPTS.values()) + list(HARMLESS.values()):
        run_file(src.replace("SENTINEL", str(folder / "SENTINEL")), "test.py",
                 RunOptions(max_steps=100_000, timeout=10))
    assert not (folder / "SENTINEL").exists()


@pytest.fixture
def sentinel(tmp_path, monkeypatch, warm):
    monkeypatch.chdir(tmp_path)  # relative 'SENTINEL' lands here
    path = tmp_path / "SENTINEL"
    sandbox_flag.HIT = False
    _AUDIT["events"] = []
    yield path
    _AUDIT["armed"] = False
    assert not path.exists(), "an escape attempt created the sentinel file"
    assert sandbox_flag.HIT is False, "an escape attempt flipped the flag"
    assert _AUDIT["events"] == [], f"the run did something outside gradcli's own work: {_AUDIT['events'][:5]}"
    assert sorted(os.listdir(tmp_path)) == [], "the run left a file behind"


def _armed_run(run, src: str, **options):
    _AUDIT["file"], _AUDIT["armed"] = "test.py", True
    try:
        return run(src, **options)
    finally:
        _AUDIT["armed"] = False


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_escape_refused(run, sentinel, name):
    src = ATTEMPTS[name].replace("SENTINEL", str(sentinel)) + AFTER
    r = _armed_run(run, src, max_steps=100_000, timeout=10)
    assert not r.ok, f"{name}: the attempt ran to completion"
    assert r.error.kind in {"unsupported", "name", "runtime", "type", "limit", "syntax"}, r.error
    assert r.stdout == ""  # nor did the print after it run


def test_the_sentinels_see_an_escape(run, tmp_path):
    # controls: what the sentinels would see if an attempt got through
    _AUDIT["events"], _AUDIT["file"], _AUDIT["armed"] = [], "test.py", True
    try:
        with open(tmp_path / "written", "w") as fh:
            fh.write("x")
        exec(compile("y = 1", "<escape>", "exec"), {})  # noqa: S102 - the control, in the test itself
    finally:
        _AUDIT["armed"] = False
    seen = [event for event, _ in _AUDIT["events"]]
    assert seen[:3] == ["open", "compile", "exec"], seen
    assert run("x = 1\n" + AFTER).stdout == "the attempt did not stop the run\n"


def test_many_attempts(run):
    assert len(ATTEMPTS) >= 100
    assert len(V2_ATTEMPTS) >= 80  # SPEC §2b's new surface: imports, modules, classes, formatting
    assert len(MORE_ATTEMPTS) + len(HARMLESS) >= 100 - 90


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_harmless_by_construction(run, sentinel, name):
    r = _armed_run(run, HARMLESS[name].replace("SENTINEL", str(sentinel)))
    assert r.ok, r.error


def test_shadowing_does_not_leak_between_runs(run):
    r1 = run("print = lambda *a: None\nlen = 3\n")
    assert r1.ok
    r2 = run("print(len([1, 2]))\n")
    assert r2.stdout == "2\n"


def test_static_refusals_run_nothing(run, sentinel):
    # a refused construct at the END of the file: the first statements must not run either
    src = "print('ran')\nx = torch.ones(2)\nimport os\n"
    r = run(src)
    assert r.error.kind == "unsupported"
    assert r.stdout == "" and r.tensors == []


def test_print_never_reaches_real_stdout(run, capsys):
    r = run("print('hello from the file')\n")
    assert r.stdout == "hello from the file\n"
    captured = capsys.readouterr()
    assert "hello from the file" not in captured.out


def test_interpreter_source_has_no_eval_exec_compile():
    import inspect

    import gradcli.lang.interpreter as interp
    import gradcli.lang.run as runmod

    for mod in (interp, runmod):
        code = inspect.getsource(mod)
        for word in ("eval(", "exec(", "compile("):
            lines = [ln for ln in code.splitlines() if word in ln and not ln.strip().startswith(("#", '"', "``"))]
            bad = [ln for ln in lines if not any(ok in ln for ok in ("literal_eval", "compile_", "re.compile("))]
            assert not bad, bad


def test_user_function_exposes_nothing():
    from gradcli.lang.access import get_attr
    from gradcli.lang.interpreter import UserFunction

    assert UserFunction._gradcli_public == frozenset()
    with pytest.raises(Exception):
        get_attr(UserFunction.__new__(UserFunction), "name")
