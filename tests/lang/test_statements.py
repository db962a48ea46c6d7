"""Every statement form, checked against CPython itself (the same program run by exec in the test).

Programs here use only Python values, so CPython is the reference: stdout must be
identical.  Tensor-specific semantics are in test_tensor_statements.py and lang_cases/.
"""
from __future__ import annotations

import contextlib
import io

import pytest

PROGRAMS = {
    "assignment_unpacking": r"""
x = 1
x += 2
print(x)
a, b = 1, 2
a, (b, c) = 1, (2, 3)
print(a, b, c)
first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = (1, 2, 3)
print(init, last)
h, *m, t = range(5)
print(h, m, t)
""",
    "containers_and_inplace": r"""
l = [1, 2, 3]
l[0] = 10
l[1:2] = [7, 8]
print(l, l[-1], l[::-1], l[1:3])
d = {'a': 1, 'b': 2}
d['c'] = 3
print(d, d.get('z', 0), list(d.keys()), list(d.items()))
l2 = l
l2 += [5]
print(l, l is l2)
t = (1, 2)
t2 = t
t2 += (3,)
print(t, t2)
s = 'ab'
s *= 3
print(s)
""",
    "loops_break_continue_else": r"""
for i in range(3):
    if i == 1:
        continue
    print(i)
else:
    print('done')
for i in range(10):
    if i == 2:
        break
    print(i)
else:
    print('not printed')
n = 0
while n < 5:
    n += 1
    if n == 3:
        continue
    print(n)
else:
    print('while done')
while True:
    break
print('after')
""",
    "def_arguments": r"""
def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)
print(f(1, c=3))
print(f(1, 5, 6, 7, c=3, e=9))
print(f(*[1, 2], **{'c': 0}))
def g(a, /, b):
    return a + b
print(g(1, b=2))
def h(*, k=3):
    return k
print(h(), h(k=4))
""",
    "closures_lambdas": r"""
def outer(x):
    def inner(y):
        return x + y
    return inner
add5 = outer(5)
print(add5(3))
def counter():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return [f() for f in fs]
print(counter())
def mk():
    v = 1
    def g():
        return v
    v = 2
    return g
print(mk()())
sq = lambda x, y=2: x ** y
print(sq(3), sq(3, 3))
def deep():
    a = 1
    def l1():
        def l2():
            return a + 1
        return l2()
    return l1()
print(deep())
""",
    "comprehensions_builtins": r"""
print([x * 2 for x in range(5) if x % 2 == 0])
print([(x, y) for x in range(3) for y in range(x)])
print({k: v for k, v in [(1, 2), (3, 4)]})
print(sum(x for x in range(10)))
print(list(zip([1, 2], 'ab')), list(enumerate('xy', 1)), list(reversed([1, 2, 3])))
x = 10
print([x for x in range(3)], x)
print(max([3, 1, 2]), min(3, 1), max([1, 2], key=lambda v: -v), abs(-3), round(2.567, 2), round(2.5))
print(len('abc'), int('7') + 1, float('1.5'), bool(0), str(12), tuple([1, 2]), dict(a=1), list('ab'))
print(isinstance(1, int), isinstance(1.0, (int, float)), isinstance('a', str))
""",
    "operators_fstrings_methods": r"""
a = 5
print(1 < a < 10, 1 < a > 10, a == 5 != 6)
print(a if a > 3 else -a, not a, -a, +a, ~a)
print(a and 0, 0 or 'x', None or [] or 3)
print(7 // 2, 7 % 3, 2 ** 10, 7 / 2, 5 & 3, 5 | 3, 5 ^ 3, 1 << 4, 256 >> 2)
print(3 in [1, 2, 3], 4 not in (1, 2), 'a' in 'abc', None is None, a is not None)
print(f'{a}', f'{a:5d}|', f'{3.14159:.2f}', f'{"x"!r}', f'{a!s:>4}', f'{a=}', f'{{}}')
print(f'{a:{a}}|', f"{'nested'}")
print('a,b'.split(','), '-'.join(['x', 'y']), ' s '.strip(), 'ab'.upper(), 'AB'.lower(), 'abc'.startswith('a'), 'ab'.replace('a', 'z'))
print([1, 2, 1].count(1), [3, 4].index(4), (1, 2).count(2), 2.0.is_integer(), (3).real)
l = [3, 1, 2]
l.sort()
l.append(5)
l.extend([6])
l.insert(0, 0)
l.reverse()
print(l, l.pop(), l.copy())
""",
    "misc_statements": r"""
x = [1, 2, 3]
print(x[None if False else 0], x[-1:], x[:], x[::2])
print('hello'[1:4], (1, 2, 3)[1])
assert 1 == 1
assert True, 'msg'
pass
if False:
    pass
elif 1:
    print('elif')
else:
    print('no')
y: int = 3
print(y)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10))
def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
print(fib(30))
print(1e300 * 10, -1e300 * 10, 0.1 + 0.2)
print(1, 2, sep='-', end='!\n')
print()
print(None, True, [None], {'a': None})
x = 1; y = 2; print(x + y)
""",
}

PROGRAMS.update(
    {
        "nested_functions_and_recursion": r"""
def make_adder(n):
    def add(x, *, scale=1):
        return (x + n) * scale
    return add
adders = [make_adder(i) for i in range(3)]
print([a(10) for a in adders], adders[2](1, scale=3))
def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))
print(ack(2, 3))
def gen_sum(*xs, **kw):
    total = kw.get('start', 0)
    for x in xs:
        total += x
    return total
print(gen_sum(1, 2, 3), gen_sum(start=10), gen_sum(*range(4), **{'start': 1}))
""",
        "while_else_and_nested_loops": r"""
found = None
for i in range(5):
    for j in range(5):
        if i * j == 6:
            found = (i, j)
            break
    if found:
        break
print(found)
k = 0
while k < 3:
    k += 1
else:
    print('else ran', k)
i = 0
while i < 10:
    i += 1
    if i % 2:
        continue
    if i > 6:
        break
    print(i, end=' ')
print()
""",
        "dict_and_list_methods": r"""
d = {}
d.setdefault('a', []).append(1)
d.update(b=2)
print(d.pop('b'), d)
print(list(d.values()), d.copy() == d)
l = [5, 3, 8]
l.remove(3)
print(l, l.index(8))
l.clear()
print(l)
s = 'Hello World'
print(s.lower().split(), s.count('o'), s.find('W'), s.rsplit(' ', 1), s.title(), s.isalpha())
print('  x  '.lstrip(), '|', '  x  '.rstrip(), '|', 'a\\nb'.splitlines(), '12'.isdigit())
""",
        "slicing_and_indexing": r"""
l = list(range(10))
print(l[2:8:2], l[-3:], l[:-7], l[::-3], l[5:2], l[-1])
l[2:5] = ['a']
print(l)
m = [[1, 2], [3, 4]]
m[1][0] = 30
print(m, m[-1][-1])
t = 'abcdef'
print(t[1::2], t[::-1][0])
print({'k': [1, 2]}['k'][1])
""",
        "conditional_and_boolean": r"""
vals = [0, 1, '', 'a', [], [0], None, 0.0]
print([bool(v) for v in vals])
print([v or 'dflt' for v in vals])
print([v and 'yes' for v in vals])
x = 5
print('big' if x > 3 else 'small', 'neg' if x < 0 else 'zero' if x == 0 else 'pos')
print(1 < 2 < 3 < 4, 1 < 3 < 2, 2 == 2.0, x is not None, [] == [])
print(not 0, not [1], -(-3), ~0)
def side(v, log):
    log.append(v)
    return v
log = []
r = side(0, log) and side(1, log)
r2 = side(1, log) or side(2, log)
print(r, r2, log)
""",
        "fstrings_formats": r"""
x = 3.14159
n = 42
s = 'hi'
print(f'{x:.3f} {x:10.2f}| {n:05d} {n:x} {n:b} {n:,} {x:e} {x:%}')
print(f'{s!r} {s:>5}| {s:<5}| {s:^6}| {s!s:*^7}')
w = 8
p = 3
print(f'{x:{w}.{p}f}|')
print(f'{[1, 2]} {(1,)} {None} {True} {1 + 1}')
print(f"{'q'}{n}{x:.0f}", f'{n=}', f'{x = :.1f}')
""",
        "numbers": r"""
print(7 // -2, -7 % 3, 2 ** -1, 10 / 4)
print(int(3.9), int(-3.9), float('inf') > 1e308, round(0.125, 2), round(-2.5), abs(-0.0))
print(0.1 + 0.2 == 0.3, 1e16 + 1, 2 ** 100, (2 ** 100).bit_length(), 3 .real, (1.5).as_integer_ratio())
print(True + True, True * 3, 1 == True, isinstance(True, int))
print(max(3, 1, 2), min([4, 5]), sum([0.5, 0.25]), sum([1, 2], 10), max('abc'), min((2, 1)))
""",
        "tuple_and_star_unpacking": r"""
a, b = b, a = 1, 2
print(a, b)
(x, y), z = (1, 2), 3
print(x, y, z)
[p, q] = 'pq'
print(p, q)
first, *middle, last = 'abcde'
print(first, middle, last)
*head, = [1, 2]
print(head)
for i, (k, v) in enumerate({'a': 1, 'b': 2}.items()):
    print(i, k, v)
print(*[1, 2], *(3,), sep=',')
print([*range(3), *'ab'], (*[1], 2))
d = {'a': 1, **{'b': 2}}
print(d)
""",
        "comprehension_scopes": r"""
x = 'outer'
r = [x for x in range(2)]
print(r, x)
def f():
    y = 10
    return [y + i for i in range(3)], {i: y for i in range(2)}, list(y * j for j in range(2))
print(f())
print([[i * j for j in range(3)] for i in range(3)])
print([i for i in range(10) if i % 2 if i % 3])
m = [[1, 2], [3, 4]]
print([v for row in m for v in row])
""",
        "semicolons_and_pass": r"""
a = 1; b = 2; c = a + b; print(c)
if c: pass
for i in range(2): print(i); print(-i)
def f(): return 'one-liner'
print(f())
""",
    }
)


def run_cpython(source: str):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, "prog.py", "exec"), {"__name__": "__main__"})  # the reference, not the product
        except Exception as e:  # noqa: BLE001
            return out.getvalue(), type(e).__name__
    return out.getvalue(), None


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_output_as_cpython(run, name):
    source = PROGRAMS[name].lstrip("\n")
    expected_out, expected_err = run_cpython(source)
    assert expected_err is None, f"reference program fails in CPython: {expected_err}"
    result = run(source)
    assert result.error is None, result.error
    assert result.stdout == expected_out
