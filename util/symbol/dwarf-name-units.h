/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which compilation units may hold a DIE named NAME, without walking the
 * DIEs: a DIE's name is either inline in .debug_info (DW_FORM_string) or
 * an offset into .debug_str (DW_FORM_strp), so a unit whose bytes contain
 * neither "NAME\0" nor the offset of a "NAME\0" in .debug_str names no DIE
 * NAME.  A few units too many (an offset's bytes seen by chance) cost a
 * walk each; none is ever missed.
 */
#ifndef TPERF_DWARF_NAME_UNITS_H
#define TPERF_DWARF_NAME_UNITS_H

#include <elfutils/libdw.h>

/*
 * dwarf_name_units - the units of @dw that may name a DIE @name
 * @dw: the DWARF (its Elf's .debug_info/.debug_str/.debug_abbrev read uncompressed)
 * @name: the name, as in DW_AT_name or DW_AT_linkage_name
 * @units: set to the DIE offsets of those units' DIEs (malloc'ed), in
 *	section order, as dwarf_nextcu() gives them
 *
 * Where a name can be elsewhere (string forms through .debug_str_offsets
 * or a supplementary file, a DW_AT_abstract_origin or DW_AT_specification
 * into another unit, compressed sections that libdw inflates itself), this
 * cannot say and returns -ENOTSUP: walk every unit then.
 *
 * Return: the number of units in *@units, -ENOTSUP or -ENOMEM.
 */
int dwarf_name_units(Dwarf *dw, const char *name, Dwarf_Off **units);

#endif
