#ifndef CTOMLRELEASE_H
#define CTOMLRELEASE_H

/// Deletes a table that CTOML's `tableCreateFromString` made (a `new toml::table`), with everything in it.
/// TOMLKit 0.6.0 has no function for this: its `TOMLTable` never frees the table it parsed.
void nodwire_toml_table_delete(void *table);

#endif
