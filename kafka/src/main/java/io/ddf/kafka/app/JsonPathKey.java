package io.ddf.kafka.app;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ddf.kafka.KeyBytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dedup key inside a JSON value, named by a simple JSON path ({@code $.id}, {@code $.user.ids[0]}) or a JSON
 * Pointer ({@code /user/ids/0}). A text field's key is its UTF-8 text; any other node's is its compact JSON. A value
 * that is not JSON, or lacks the field, has no key: the record passes unjudged.
 */
final class JsonPathKey implements KeyBytes<byte[], byte[]>
{
    private static final Pattern STEP = Pattern.compile("\\.([^.\\[\\]]+)|\\[(\\d+)]");

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonPointer pointer;

    JsonPathKey(final String path)
    {
        this.pointer = pointer(path);
    }

    /**
     * @param path {@code $.a.b[0]} or {@code /a/b/0}.
     * @return the JSON Pointer it names.
     * @throws IllegalArgumentException for anything else.
     */
    static JsonPointer pointer(final String path)
    {
        if (path.startsWith("/"))
        {
            try
            {
                return JsonPointer.compile(path);
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("--key " + path + " is not a JSON Pointer: " + e.getMessage(), e);
            }
        }
        if (!path.startsWith("$") || path.length() == 1)
        {
            throw new IllegalArgumentException("--key must be key, value, a JSON path such as $.id or $.user.ids[0], " +
                "or a JSON Pointer such as /id, not '" + path + "'");
        }
        final StringBuilder pointer = new StringBuilder();
        final Matcher step = STEP.matcher(path);
        int at = 1;
        while (at < path.length())
        {
            if (!step.find(at) || step.start() != at)
            {
                throw new IllegalArgumentException("--key " + path + ": cannot read the path at '" +
                    path.substring(at) + "' (use .name and [index] steps)");
            }
            final String name = step.group(1) != null ? step.group(1) : step.group(2);
            pointer.append('/').append(name.replace("~", "~0").replace("/", "~1"));
            at = step.end();
        }
        return JsonPointer.compile(pointer.toString());
    }

    @Override
    public byte[] apply(final byte[] key, final byte[] value)
    {
        if (value == null)
        {
            return null;
        }
        final JsonNode node;
        try
        {
            node = mapper.readTree(value).at(pointer);
        }
        catch (final IOException e)
        {
            return null;
        }
        if (node.isMissingNode() || node.isNull())
        {
            return null;
        }
        return node.isTextual() ? node.textValue().getBytes(StandardCharsets.UTF_8) :
            node.toString().getBytes(StandardCharsets.UTF_8);
    }
}
