package io.ddf.persistence;

/**
 * A decoded, validated header.
 *
 * @param spec          the immutable fields the caller asked for.
 * @param majorVersion  format major version.
 * @param minorVersion  format minor version.
 * @param createdMillis creation time, epoch milliseconds.
 * @param tableOffset   offset of the table.
 * @param stateOffset   offset of the state region.
 * @param stateLength   length of the state region.
 */
record FilterFileHeader(
    FilterFileSpec spec, int majorVersion, int minorVersion, long createdMillis, long tableOffset, long stateOffset,
    long stateLength)
{
    /** @return the length a file with this header has. */
    long fileLength()
    {
        return FilterFileDescriptor.fileLength(tableOffset, spec.tableLength());
    }
}
