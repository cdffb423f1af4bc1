package io.ddf.ingest.acl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's passwords, as SHA-256 hashes only (the clear text of {@code >pw} is hashed as the rule is read and never
 * kept), or {@code nopass}. Strings here carry one byte per character (ISO-8859-1), so a password is hashed as
 * the exact bytes a client sends, as Redis does.
 */
final class Passwords
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Lower-case hex SHA-256 digests, in the order added. */
    private final List<String> hashes = new ArrayList<>();
    private boolean noPass;

    Passwords copy()
    {
        final Passwords copy = new Passwords();
        copy.hashes.addAll(hashes);
        copy.noPass = noPass;
        return copy;
    }

    /**
     * @param op a password rule: {@code >pw}, {@code #hash}, {@code <pw}, {@code !hash}, {@code nopass},
     *           {@code resetpass}.
     * @return false when it is not a password rule.
     * @throws AclException when a hash is malformed or the password to remove is not there.
     */
    boolean apply(final String op)
    {
        if (op.equalsIgnoreCase("nopass"))
        {
            hashes.clear();
            noPass = true;
            return true;
        }
        if (op.equalsIgnoreCase("resetpass"))
        {
            hashes.clear();
            noPass = false;
            return true;
        }
        final char c = op.charAt(0);
        if (c == '>' || c == '#')
        {
            final String hash = c == '>' ? hash(op.substring(1).getBytes(StandardCharsets.ISO_8859_1)) :
                checkedHash(op.substring(1));
            if (!hashes.contains(hash))
            {
                hashes.add(hash);
            }
            noPass = false;
            return true;
        }
        if (c == '<' || c == '!')
        {
            final String hash = c == '<' ? hash(op.substring(1).getBytes(StandardCharsets.ISO_8859_1)) :
                checkedHash(op.substring(1));
            if (!hashes.remove(hash))
            {
                throw new AclException(RuleErrors.NO_SUCH_PASSWORD);
            }
            return true;
        }
        return false;
    }

    /**
     * @param password the bytes the client sent.
     * @return whether they are one of the passwords (any, under {@code nopass}); compared in constant time.
     */
    boolean matches(final byte[] password)
    {
        if (noPass)
        {
            return true;
        }
        final byte[] given = hash(password).getBytes(StandardCharsets.US_ASCII);
        boolean found = false;
        for (final String h : hashes)
        {
            found |= MessageDigest.isEqual(given, h.getBytes(StandardCharsets.US_ASCII));
        }
        return found;
    }

    boolean noPass()
    {
        return noPass;
    }

    List<String> hashes()
    {
        return List.copyOf(hashes);
    }

    /**
     * @param clear the password's bytes.
     * @return its SHA-256 in lower-case hex, the form {@code #hash} rules and ACL LIST use.
     */
    static String hash(final byte[] clear)
    {
        final byte[] digest;
        try
        {
            digest = MessageDigest.getInstance("SHA-256").digest(clear);
        }
        catch (final NoSuchAlgorithmException e)
        {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        final char[] hex = new char[digest.length * 2];
        for (int i = 0; i < digest.length; i++)
        {
            hex[2 * i] = HEX[(digest[i] >> 4) & 0xF];
            hex[2 * i + 1] = HEX[digest[i] & 0xF];
        }
        return new String(hex);
    }

    private static String checkedHash(final String hash)
    {
        if (hash.length() != 64 || !hash.chars().allMatch(ch -> ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f'))
        {
            throw new AclException(RuleErrors.BAD_HASH);
        }
        return hash;
    }
}
