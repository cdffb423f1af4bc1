package io.ddf.engine;

/** The answer of {@link DuplicateFilter#stream}: was the element judged seen before. */
public enum Verdict
{
    /** Judged new; the filter has recorded it. */
    UNSEEN,
    /** Judged seen before. */
    DUPLICATE
}
