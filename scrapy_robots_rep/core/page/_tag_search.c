/*
 * The compiled form of scrapy_robots_rep.core.page.tag_search.find_wanted_meta: the search the page
 * scanner runs over whole documents. Optional: without a C compiler the package uses the Python
 * form in tag_search.py, which finds the same tags.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define SIXTEEN_AT_ONCE 1
#endif

/* ASCII lower case, as bytes.lower() and an ignore-case bytes pattern read letters. */
#define LOWER(c) ((unsigned char)((c) >= 'A' && (c) <= 'Z' ? (c) + 32 : (c)))

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
#define M_TAG_STARTS(at)                                                                                       \
    _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(data + (at))), open),                     \
                  _mm_cmpeq_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)(data + (at) + 1)), fold), m))
    /* Sixty-four bytes a turn while there is room (most of a page holds no "<m"), then sixteen. */
    for (; start + 65 <= end && start < limit; start += 64) {
        __m128i any = _mm_or_si128(_mm_or_si128(M_TAG_STARTS(start), M_TAG_STARTS(start + 16)),
                                   _mm_or_si128(M_TAG_STARTS(start + 32), M_TAG_STARTS(start + 48)));
        if (_mm_movemask_epi8(any) != 0) {
            break; /* the sixteen-byte loop below finds where */
        }
    }
#undef M_TAG_STARTS
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
        if (data[start] == '<' && LOWER(data[start + 1]) == 'm') {
            return start;
        }
    }
    return limit;
}

/* Where the next "<meta" followed by a space or "/" starts in [start, end), or -1. */
static Py_ssize_t
next_meta_tag(const unsigned char *data, Py_ssize_t start, Py_ssize_t end)
{
    /* A "<" at limit or later leaves no room for "meta" and the byte after it. */
    Py_ssize_t limit = end - 5;
    while (start < limit) {
        Py_ssize_t open = next_m_tag(data, start, limit, end);
        if (open >= limit) {
            return -1;
        }
        if (LOWER(data[open + 2]) == 'e' && LOWER(data[open + 3]) == 't' && LOWER(data[open + 4]) == 'a'
            && ends_tag_name(data[open + 5])) {
            return open;
        }
        start = open + 1;
    }
    return -1;
}

/* The position after the ">" that ends a tag whose attributes start at pos (a ">" inside quotes
   does not end it), or -1 when it does not end before end. */
static Py_ssize_t
tag_end(const unsigned char *data, Py_ssize_t pos, Py_ssize_t end)
{
    while (pos < end) {
        unsigned char c = data[pos];
        if (c == '>') {
            return pos + 1;
        }
        if (c == '"' || c == '\'') {
            const unsigned char *closing = memchr(data + pos + 1, c, (size_t)(end - pos - 1));
            if (closing == NULL) {
                return -1;
            }
            pos = closing - data;
        }
        pos++;
    }
    return -1;
}

/* The bytes a wanted name may start with, in any letter case: most bytes of a tag start none, so
   most positions are passed over with one look-up. */
typedef struct {
    unsigned char starts[256];
    int empty; /* an empty name occurs everywhere */
} NameStarts;

static void
name_starts(PyObject *names, NameStarts *table)
{
    memset(table, 0, sizeof(*table));
    for (Py_ssize_t n = 0; n < PyTuple_GET_SIZE(names); n++) {
        PyObject *name = PyTuple_GET_ITEM(names, n);
        if (PyBytes_GET_SIZE(name) == 0) {
            table->empty = 1;
            continue;
        }
        unsigned char first = (unsigned char)PyBytes_AS_STRING(name)[0];
        table->starts[first] = 1;
        if (first >= 'a' && first <= 'z') {
            table->starts[first - 32] = 1;
        }
    }
}

/* Whether one of the lower-cased names occurs in data[start:stop], letters compared in any case. */
static int
holds_a_name(const unsigned char *data, Py_ssize_t start, Py_ssize_t stop, PyObject *names, const NameStarts *table)
{
    if (table->empty) {
        return 1;
    }
    for (Py_ssize_t at = start; at < stop; at++) {
        if (!table->starts[data[at]]) {
            continue;
        }
        for (Py_ssize_t n = 0; n < PyTuple_GET_SIZE(names); n++) {
            PyObject *name = PyTuple_GET_ITEM(names, n);
            const char *text = PyBytes_AS_STRING(name);
            Py_ssize_t length = PyBytes_GET_SIZE(name), i = 0;
            while (i < length && at + i < stop && LOWER(data[at + i]) == (unsigned char)text[i]) {
                i++;
            }
            if (i == length) {
                return 1;
            }
        }
    }
    return 0;
}

static PyObject *
find_wanted_meta(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    Py_ssize_t start, end, found = -1;
    PyObject *names, *passed, *result = NULL;

    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "find_wanted_meta(data, start, end, names) takes 4 arguments");
        return NULL;
    }
    start = PyLong_AsSsize_t(args[1]);
    end = PyLong_AsSsize_t(args[2]);
    if ((start == -1 || end == -1) && PyErr_Occurred()) {
        return NULL;
    }
    names = args[3];
    if (!PyTuple_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "names must be a tuple of lower-cased bytes");
        return NULL;
    }
    for (Py_ssize_t n = 0; n < PyTuple_GET_SIZE(names); n++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(names, n))) {
            PyErr_SetString(PyExc_TypeError, "names must be a tuple of lower-cased bytes");
            return NULL;
        }
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    passed = PyList_New(0);
    if (passed == NULL) {
        goto done;
    }
    if (end > view.len) {
        end = view.len;
    }
    if (start < 0) {
        start = 0;
    }
    const unsigned char *data = (const unsigned char *)view.buf;
    NameStarts table;
    name_starts(names, &table);
    Py_ssize_t open;
    while ((open = next_meta_tag(data, start, end)) >= 0) {
        Py_ssize_t stop = tag_end(data, open + 6, end);
        if (stop < 0) {
            start = open + 1;
            continue;
        }
        if (holds_a_name(data, open, stop, names, &table)) {
            found = open;
            break;
        }
        PyObject *span = Py_BuildValue("(nn)", open, stop);
        if (span == NULL || PyList_Append(passed, span) < 0) {
            Py_XDECREF(span);
            goto done;
        }
        Py_DECREF(span);
        start = stop;
    }
    result = Py_BuildValue("(nO)", found, passed);
done:
    Py_XDECREF(passed);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef methods[] = {
    {"find_wanted_meta", (PyCFunction)(void (*)(void))find_wanted_meta, METH_FASTCALL,
     "find_wanted_meta(data, start, end, names) -> (start, passed)\n\n"
     "Where the next <meta> tag mentioning one of names starts (-1: none), and where the meta tags\n"
     "passed on the way start and end."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_tag_search", "Compiled search for wanted <meta> tags.", -1, methods,
};

PyMODINIT_FUNC
PyInit__tag_search(void)
{
    return PyModule_Create(&module);
}
