/*
 * The compiled form of scrapy_robots_rep.core.page.tag_search.find_meta_tag: the one search the
 * page scanner runs over whole documents. Optional: without a C compiler the package uses the
 * regular expression in tag_search.py, which finds the same positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define SIXTEEN_AT_ONCE 1
#endif

/* Lower-cases an ASCII letter; other bytes keep a value no letter of "meta" has. */
#define FOLD(c) ((unsigned char)((c) | 0x20))

static int
ends_tag_name(unsigned char c)
{
    /* What Python's bytes pattern [\s/] matches. */
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '/';
}

/* The first i in [start, limit) where "<m" or "<M" starts, or limit. Reads no byte at end or past. */
static Py_ssize_t
next_m_tag(const unsigned char *data, Py_ssize_t start, Py_ssize_t limit, Py_ssize_t end)
{
#ifdef SIXTEEN_AT_ONCE
    const __m128i open = _mm_set1_epi8('<'), m = _mm_set1_epi8('m'), fold = _mm_set1_epi8(0x20);
    for (; start + 17 <= end && start < limit; start += 16) {
        __m128i here = _mm_loadu_si128((const __m128i *)(data + start));
        __m128i next = _mm_loadu_si128((const __m128i *)(data + start + 1));
        int hits = _mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(here, open), _mm_cmpeq_epi8(_mm_or_si128(next, fold), m)));
        if (hits != 0) {
            Py_ssize_t at = start + __builtin_ctz((unsigned int)hits);
            return at < limit ? at : limit;
        }
    }
#endif
    for (; start < limit; start++) {
        if (data[start] == '<' && FOLD(data[start + 1]) == 'm') {
            return start;
        }
    }
    return limit;
}

static PyObject *
find_meta_tag(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    Py_ssize_t start, end, found = -1;

    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "find_meta_tag(data, start, end) takes 3 arguments");
        return NULL;
    }
    start = PyLong_AsSsize_t(args[1]);
    end = PyLong_AsSsize_t(args[2]);
    if ((start == -1 || end == -1) && PyErr_Occurred()) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (end > view.len) {
        end = view.len;
    }
    if (start < 0) {
        start = 0;
    }
    const unsigned char *data = (const unsigned char *)view.buf;
    /* A "<" at limit or later leaves no room for "meta" and the byte after it. */
    Py_ssize_t limit = end - 5;
    while (start < limit) {
        Py_ssize_t open = next_m_tag(data, start, limit, end);
        if (open >= limit) {
            break;
        }
        if (FOLD(data[open + 2]) == 'e' && FOLD(data[open + 3]) == 't' && FOLD(data[open + 4]) == 'a'
            && ends_tag_name(data[open + 5])) {
            found = open;
            break;
        }
        start = open + 1;
    }
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(found);
}

static PyMethodDef methods[] = {
    {"find_meta_tag", (PyCFunction)(void (*)(void))find_meta_tag, METH_FASTCALL,
     "find_meta_tag(data, start, end) -> int\n\nWhere the next <meta tag starts in data[start:end], or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_tag_search", "Compiled search for <meta> tags.", -1, methods,
};

PyMODINIT_FUNC
PyInit__tag_search(void)
{
    return PyModule_Create(&module);
}
