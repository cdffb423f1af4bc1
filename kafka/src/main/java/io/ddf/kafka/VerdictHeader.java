package io.ddf.kafka;

import io.ddf.engine.Verdict;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;

/** The record header that carries a verdict when duplicates are marked rather than dropped. */
public final class VerdictHeader
{
    /** Header name. */
    public static final String NAME = "ddf-verdict";

    private static final byte[] UNSEEN = Verdict.UNSEEN.name().getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DUPLICATE = Verdict.DUPLICATE.name().getBytes(StandardCharsets.US_ASCII);

    private VerdictHeader()
    {
    }

    /**
     * @param verdict a verdict.
     * @return the header value: the verdict's name in ASCII ({@code UNSEEN} or {@code DUPLICATE}).
     */
    static byte[] value(final Verdict verdict)
    {
        return (verdict == Verdict.UNSEEN ? UNSEEN : DUPLICATE).clone();
    }

    /**
     * @param headers a record's headers.
     * @return the verdict they carry, or null when the record was not judged (it had no dedup key).
     */
    public static Verdict of(final Headers headers)
    {
        final Header header = headers.lastHeader(NAME);
        return header == null ? null : Verdict.valueOf(new String(header.value(), StandardCharsets.US_ASCII));
    }
}
