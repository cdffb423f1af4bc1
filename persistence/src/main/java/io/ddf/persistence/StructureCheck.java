package io.ddf.persistence;

import static io.ddf.persistence.FilterFileException.Reason.CORRUPT;

/** Checks the table and state region of a file whose checksum cannot vouch for them; reads only. */
@FunctionalInterface
public interface StructureCheck
{
    /**
     * @param file the file, mapped.
     * @throws IllegalArgumentException naming the first thing found wrong (where, and what).
     */
    void check(FilterFile file);

    /**
     * Runs a structure check, turning what it refuses into {@code CORRUPT} naming the file and why its checksum could
     * not vouch for it.
     *
     * @param file      an open file.
     * @param structure the check.
     * @throws FilterFileException {@code CORRUPT} when the check fails.
     */
    static void run(final FilterFile file, final StructureCheck structure)
    {
        file.checkLength();
        try
        {
            structure.check(file);
        }
        catch (final IllegalArgumentException | IllegalStateException ex)
        {
            throw new FilterFileException(CORRUPT, file.path(), "structure check failed (" + switch (file.tableCheck())
            {
                case NOT_SEALED -> "the file was not closed cleanly";
                case SEAL_MISMATCH -> file.sealMismatch();
                default -> "format " + file.majorVersion() + "." + file.minorVersion() + " has no table checksum";
            } + "): " + ex.getMessage() + "; the file is left unchanged", ex);
        }
    }
}
