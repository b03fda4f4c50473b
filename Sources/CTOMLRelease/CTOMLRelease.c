#include "CTOMLRelease.h"

// toml::v3::table's deleting destructor (Itanium C++ ABI "D0": ~table, then operator delete). CTOML's
// objects define it, as the table's vtable needs it; naming it here links to that one definition rather
// than compiling a second copy of toml++. A TOMLKit whose toml++ has another ABI namespace fails to link
// here, instead of freeing the wrong thing at run time.
#ifdef __APPLE__
extern void toml_table_deleting_destructor(void *table) __asm__("__ZN4toml2v35tableD0Ev");
#else
extern void toml_table_deleting_destructor(void *table) __asm__("_ZN4toml2v35tableD0Ev");
#endif

void nodwire_toml_table_delete(void *table) {
    if (table) toml_table_deleting_destructor(table);
}
