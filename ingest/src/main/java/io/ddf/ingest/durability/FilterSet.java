package io.ddf.ingest.durability;

import io.ddf.persistence.Syncable;

/**
 * Filters, each once: a commit's, or those a connection wrote to since its last one (a handful: a plain array
 * scanned by identity).
 */
final class FilterSet
{
    private Syncable[] filters = new Syncable[4];
    private int size;

    void add(final Syncable filter)
    {
        for (int i = 0; i < size; i++)
        {
            if (filters[i] == filter)
            {
                return;
            }
        }
        if (size == filters.length)
        {
            filters = java.util.Arrays.copyOf(filters, size * 2);
        }
        filters[size++] = filter;
    }

    int size()
    {
        return size;
    }

    Syncable get(final int i)
    {
        return filters[i];
    }

    void clear()
    {
        java.util.Arrays.fill(filters, 0, size, null);
        size = 0;
    }
}
