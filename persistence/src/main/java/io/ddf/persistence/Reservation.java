package io.ddf.persistence;

/**
 * How a new filter file's blocks were reserved at creation (FORMAT.md, "Creation and the ready protocol", step 5).
 * Reserved blocks are what lets a full disk fail at creation, as an exception, instead of later with a SIGBUS when
 * a store into the mapping finds a hole.
 */
public enum Reservation
{
    /** fallocate(2) reserved every block (and the file system's count of the file's blocks agrees, where it says). */
    FALLOCATED,
    /** The file system has no fallocate, or it left holes: zeros were written over the whole file. */
    ZERO_FILLED,
    /**
     * Zeros were written, yet the file system still counts fewer blocks than the file's length (it compresses,
     * deduplicates or copies on write): no block is reserved, and a full disk may fail a later write with SIGBUS.
     */
    UNRESERVED,
    /** Not created by this handle (opened): not recorded in the file. */
    UNKNOWN
}
