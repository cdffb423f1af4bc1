package io.ddf.ingest;

/** A command that mixes in {@link FilterOptions}, so {@link Main} can add every filter kind's options to it. */
interface UsesFilterOptions
{
    /** @return the command's filter options. */
    FilterOptions filterOptions();
}
