package io.ddf.persistence;

/**
 * What a filter file holds, read without changing it.
 *
 * @param spec          the header's immutable fields.
 * @param majorVersion  format major version.
 * @param minorVersion  format minor version.
 * @param createdMillis creation time, epoch milliseconds.
 * @param fileLength    the file's length in bytes.
 * @param state         a copy of the state region.
 */
public record FilterFileSnapshot(
    FilterFileSpec spec, int majorVersion, int minorVersion, long createdMillis, long fileLength, byte[] state)
{
}
