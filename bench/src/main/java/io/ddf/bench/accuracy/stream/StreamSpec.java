package io.ddf.bench.accuracy.stream;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What stream to draw: its type (uniform, zipf, file), alphabet, Zipf exponent, length, and a name for tables.
 *
 * @param name     shown in tables and file names (e.g. {@code uniform 2^20}).
 * @param type     uniform, zipf or file.
 * @param alphabet number of distinct elements (uniform, zipf).
 * @param exponent Zipf exponent (zipf).
 * @param length   number of elements (for a file, at most this many records).
 * @param file     the records (file).
 */
public record StreamSpec(String name, Type type, long alphabet, double exponent, long length, Path file)
{
    /** Kinds of stream. */
    public enum Type
    {
        /** Uniform over the alphabet. */
        UNIFORM,
        /** Zipf over the alphabet. */
        ZIPF,
        /** Lines of a file. */
        FILE
    }

    /**
     * @param alphabet alphabet size.
     * @param length   elements.
     * @return a uniform stream named after its alphabet.
     */
    public static StreamSpec uniform(final long alphabet, final long length)
    {
        return new StreamSpec("uniform " + alphabetName(alphabet), Type.UNIFORM, alphabet, 0, length, null);
    }

    /**
     * @param alphabet alphabet size.
     * @param exponent the Zipf exponent.
     * @param length   elements.
     * @return a Zipf stream named after its alphabet and exponent.
     */
    public static StreamSpec zipf(final long alphabet, final double exponent, final long length)
    {
        return new StreamSpec(String.format(Locale.ROOT, "zipf(%s) %s", exponent, alphabetName(alphabet)),
            Type.ZIPF, alphabet, exponent, length, null);
    }

    /**
     * @param file   the records.
     * @param length at most this many.
     * @return a stream of the file's lines.
     */
    public static StreamSpec file(final Path file, final long length)
    {
        final long records = FileRecordStream.countRecords(file);
        return new StreamSpec("file " + file.getFileName(), Type.FILE, records, 0, Math.min(length, records), file);
    }

    /**
     * @param seed the run's seed (ignored by a file stream).
     * @return a fresh stream.
     */
    public ElementStream open(final long seed)
    {
        return switch (type)
        {
            case UNIFORM -> new UniformStream(alphabet, length, seed);
            case ZIPF -> new ZipfStream(alphabet, exponent, length, seed);
            case FILE -> new FileRecordStream(file, alphabet, length);
        };
    }

    /**
     * @param factor scale factor.
     * @return this stream with its length and alphabet multiplied by factor (a file only shortens).
     */
    public StreamSpec scaled(final double factor)
    {
        final long newLength = Math.max(1, Math.round(length * factor));
        if (type == Type.FILE)
        {
            return new StreamSpec(name, type, alphabet, exponent, newLength, file);
        }
        final long newAlphabet = Math.max(1, Math.round(alphabet * factor));
        final String newName = name.replace(alphabetName(alphabet), alphabetName(newAlphabet));
        return new StreamSpec(newName, type, newAlphabet, exponent, newLength, null);
    }

    /**
     * @param alphabet a size.
     * @return {@code 2^k} for a power of two, the number otherwise.
     */
    static String alphabetName(final long alphabet)
    {
        return Long.bitCount(alphabet) == 1 ? "2^" + Long.numberOfTrailingZeros(alphabet) : Long.toString(alphabet);
    }
}
