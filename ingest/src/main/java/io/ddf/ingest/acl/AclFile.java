package io.ddf.ingest.acl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Redis's ACL file format: one {@code user <name> <rule> ...} per line, words split on single spaces, blank
 * lines skipped; anything else (a comment too: Redis rewrites the file on ACL SAVE and keeps none) is an error.
 * Every error is collected with its line, and a file with any error loads nothing (Redis's all-or-nothing rule).
 * Text is read one byte per character (ISO-8859-1), so a {@code >password} is hashed as the file's exact bytes.
 */
public final class AclFile
{
    private AclFile()
    {
    }

    /**
     * @param file the file.
     * @return its lines.
     * @throws AclFileException when it cannot be read, naming it and the reason.
     */
    public static List<String> read(final Path file)
    {
        try
        {
            return List.of(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).split("\n", -1));
        }
        catch (final IOException e)
        {
            throw new AclFileException(List.of("Error loading ACLs, opening file '" + file + "': " +
                (e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + " " +
                    e.getMessage())));
        }
    }

    /**
     * @param fileName the name errors give.
     * @param lines    the file's lines.
     * @param catalog  the commands rules may name.
     * @return the users it defines, in file order.
     * @throws AclFileException listing every malformed line, duplicate user and refused rule.
     */
    public static Map<String, User> parse(final String fileName, final List<String> lines,
        final CommandCatalog catalog)
    {
        final Map<String, User> users = new LinkedHashMap<>();
        final List<String> errors = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String where = fileName + ":" + (i + 1) + ": ";
            final String line = lines.get(i).strip();
            if (line.isEmpty())
            {
                continue;
            }
            final String[] words = line.split(" ", -1);
            if (!words[0].equals("user") || words.length < 2)
            {
                errors.add(where + "should start with the 'user' keyword followed by the username" +
                    (line.startsWith("#") ? " (an ACL file has no comments)" : ""));
                continue;
            }
            final String name = words[1];
            if (name.isEmpty() || Rules.hasSpaces(name))
            {
                errors.add(where + "username '" + name + "' contains invalid characters");
                continue;
            }
            if (users.containsKey(name))
            {
                errors.add(where + "Duplicate user '" + name + "': " + RuleErrors.DUPLICATE_USER);
                continue;
            }
            final User user = new User(name, catalog);
            for (int w = 2; w < words.length; w++)
            {
                final String rule = words[w].strip();
                try
                {
                    user.apply(rule);
                }
                catch (final AclException e)
                {
                    errors.add(where + "'" + shown(rule) + "': " + e.getMessage());
                }
            }
            users.put(name, user);
        }
        if (!errors.isEmpty())
        {
            throw new AclFileException(errors);
        }
        return users;
    }

    /** A refused rule as an error shows it: never a clear-text password. */
    static String shown(final String rule)
    {
        return rule.startsWith(">") || rule.startsWith("<") ? rule.charAt(0) + "<password>" : rule;
    }
}
