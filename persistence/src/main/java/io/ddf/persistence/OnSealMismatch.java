package io.ddf.persistence;

/** What opening a file for writing does with a sealed file whose table and state no longer match the seal's checksum. */
public enum OnSealMismatch
{
    /** Refuses it ({@code CORRUPT}, naming the file and the checksums), leaving it unchanged. */
    REFUSE,
    /**
     * Opens it as after a crash: its structure is checked (and refused when wrong, unchanged), then the seal is
     * cleared; {@link FilterFile#tableCheck()} is {@link FilterFile.TableCheck#SEAL_MISMATCH} and
     * {@link FilterFile#sealMismatch()} says why.
     */
    CHECK_STRUCTURE
}
