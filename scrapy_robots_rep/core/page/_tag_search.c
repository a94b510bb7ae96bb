/*
 * The compiled form of scrapy_robots_rep.core.page.tag_search.find_meta_tag: the one search the
 * page scanner runs over whole documents. Optional: without a C compiler the package uses the
 * regular expression in tag_search.py, which finds the same positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* Lower-cases an ASCII letter; other bytes keep a value no letter of "meta" has. */
#define FOLD(c) ((unsigned char)((c) | 0x20))

static int
ends_tag_name(unsigned char c)
{
    /* What Python's bytes pattern [\s/] matches. */
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '/';
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
    /* "<meta" and the byte after it must lie before end: a "<" at end - 6 at the latest. */
    while (start <= end - 6) {
        const unsigned char *open = memchr(data + start, '<', (size_t)(end - 5 - start));
        if (open == NULL) {
            break;
        }
        if (FOLD(open[1]) == 'm' && FOLD(open[2]) == 'e' && FOLD(open[3]) == 't' && FOLD(open[4]) == 'a'
            && ends_tag_name(open[5])) {
            found = open - data;
            break;
        }
        start = open - data + 1;
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
