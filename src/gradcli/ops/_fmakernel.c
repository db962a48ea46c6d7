/* Optional accelerator of gradcli.ops.gemm_order: the FMA kernel's chains of fmaf, compiled.
 *
 * For a row-major float32 (m x k) @ (k x n) product and the k blocks of gemm_order.k_blocks, writes
 * out[i, r, j] = fmaf(a[r, k_i + s_i - 1], b[k_i + s_i - 1, j], ... fmaf(a[r, k_i], b[k_i, j], +0.0f)),
 * the chain of block i -- exactly what gemm_order._fma_rows computes with numpy.  fmaf is correctly
 * rounded (C99 7.12.13.1), in hardware (vfmadd, AVX2 hosts) or in glibc's software fmaf, so the bits
 * are the same with and without this module and on every host; gradcli's tests check both paths.
 * Compiled with -ffp-contract=off and without -ffast-math: no other arithmetic is reordered or fused.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* One body for both builds: FMA is __builtin_fmaf (vfmadd under the avx2,fma target) or libm's fmaf. */
#define FMA_CHAINS_BODY(FMA)                                                                   \
    Py_ssize_t k0 = 0;                                                                         \
    for (Py_ssize_t i = 0; i < nb; i++) {                                                      \
        for (Py_ssize_t r = 0; r < m; r++) {                                                   \
            float *acc = out + (i * m + r) * n;                                                \
            for (Py_ssize_t j = 0; j < n; j++) acc[j] = 0.0f;                                  \
            for (Py_ssize_t q = k0; q < k0 + sizes[i]; q++) {                                  \
                const float x = a[r * k + q];                                                  \
                const float *row = b + q * n;                                                  \
                for (Py_ssize_t j = 0; j < n; j++) acc[j] = FMA(x, row[j], acc[j]);            \
            }                                                                                  \
        }                                                                                      \
        k0 += sizes[i];                                                                        \
    }

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_TARGET_FMA 1
__attribute__((target("avx2,fma"), optimize("O3", "tree-vectorize")))
static void chains_fma(const float *a, const float *b, float *out, Py_ssize_t m, Py_ssize_t k,
                       Py_ssize_t n, const int64_t *sizes, Py_ssize_t nb)
{
    FMA_CHAINS_BODY(__builtin_fmaf)
}
#endif

static void chains_libm(const float *a, const float *b, float *out, Py_ssize_t m, Py_ssize_t k,
                        Py_ssize_t n, const int64_t *sizes, Py_ssize_t nb)
{
    FMA_CHAINS_BODY(fmaf)
}

static int use_hardware(void)
{
#ifdef HAVE_TARGET_FMA
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static int hardware = -1;

PyDoc_STRVAR(fma_chains_doc,
"fma_chains(a, b, sizes, out, m, k, n)\n\n"
"The FMA kernel's chains: a (m*k float32), b (k*n float32), sizes (int64 k blocks summing to k), out\n"
"(len(sizes)*m*n float32, written), all C-contiguous buffers. Raises ValueError on a size mismatch.");

static PyObject *fma_chains(PyObject *self, PyObject *args)
{
    Py_buffer a, b, sizes, out;
    Py_ssize_t m, k, n;
    if (!PyArg_ParseTuple(args, "y*y*y*w*nnn", &a, &b, &sizes, &out, &m, &k, &n))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t nb = sizes.len / (Py_ssize_t)sizeof(int64_t);
    int64_t total = 0;
    const int64_t *sz = (const int64_t *)sizes.buf;
    for (Py_ssize_t i = 0; i < nb; i++) total += sz[i];
    if (m < 0 || k < 0 || n < 0 || total != k || a.len != m * k * (Py_ssize_t)sizeof(float)
        || b.len != k * n * (Py_ssize_t)sizeof(float) || out.len != nb * m * n * (Py_ssize_t)sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "fma_chains: buffer sizes do not match m, k, n and the k blocks");
        goto done;
    }
    if (hardware < 0) hardware = use_hardware();
    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_TARGET_FMA
    if (hardware)
        chains_fma((const float *)a.buf, (const float *)b.buf, (float *)out.buf, m, k, n, sz, nb);
    else
#endif
        chains_libm((const float *)a.buf, (const float *)b.buf, (float *)out.buf, m, k, n, sz, nb);
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&sizes);
    PyBuffer_Release(&out);
    return result;
}

static PyObject *set_hardware(PyObject *self, PyObject *arg)
{
    /* for the tests: force the libm path (0) or the probed one (1) */
    int want = PyObject_IsTrue(arg);
    if (want < 0) return NULL;
    hardware = want ? use_hardware() : 0;
    return PyBool_FromLong(hardware);
}

static PyMethodDef methods[] = {
    {"fma_chains", fma_chains, METH_VARARGS, fma_chains_doc},
    {"set_hardware", set_hardware, METH_O, "set_hardware(flag) -> whether the vfmadd path is used"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fmakernel",
    "Optional compiled FMA-kernel chains of gradcli.ops.gemm_order (same bits as its numpy path).", -1, methods,
};

PyMODINIT_FUNC PyInit__fmakernel(void) { return PyModule_Create(&module); }
