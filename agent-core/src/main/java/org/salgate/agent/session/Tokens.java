package org.salgate.agent.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.salgate.agent.core.Counts;

/**
 * The bearer tokens an agent accepts, each with its {@link Role}. Only the SHA-256 hash of each
 * token is kept, and a presented token is compared with every entry in constant time, so neither
 * memory nor timing gives a token away. Immutable and thread-safe.
 *
 * <p>A tokens file has one entry a line: the token, white space, and its role ({@code reader} or
 * {@code admin}). Blank lines and lines starting with {@code #} are ignored. Instead of the token
 * itself, a line may give {@code sha256:<64 hex digits>}, its hash, so that the file need not hold
 * the secret. Tokens are at least {@value #MIN_TOKEN_LENGTH} characters long.
 */
public final class Tokens {

    /** Shorter tokens are refused: they could be guessed. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private static final String HASH_PREFIX = "sha256:";

    private record Entry(byte[] hash, Role role) {}

    private final List<Entry> entries;

    private Tokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads a tokens file.
     *
     * @throws IOException if it cannot be read
     * @throws IllegalArgumentException naming the file and line of the first bad entry
     */
    public static Tokens read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * Parses the lines of a tokens file.
     *
     * @param source where the lines come from, for error messages
     * @throws IllegalArgumentException naming the source and line of the first bad entry
     */
    public static Tokens parse(List<String> lines, String source) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = source + " line " + (i + 1);
            String[] parts = line.split("\\s+");
            if (parts.length != 2) {
                throw new IllegalArgumentException(where + ": expected a token and its role (reader or admin) "
                        + "separated by a space, found " + Counts.of(parts.length, "word"));
            }
            Role role = role(parts[1], where);
            byte[] hash = hashOf(parts[0], where);
            for (Entry e : entries) {
                if (MessageDigest.isEqual(e.hash(), hash)) {
                    throw new IllegalArgumentException(where + ": this token is listed already; give each token once");
                }
            }
            entries.add(new Entry(hash, role));
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(source + " lists no token; write lines such as '<token> admin'");
        }
        return new Tokens(entries);
    }

    /** How many tokens there are. */
    public int size() {
        return entries.size();
    }

    /** These tokens and {@code token} with {@code role}; the new one is not checked for length. */
    public Tokens with(String token, Role role) {
        List<Entry> more = new java.util.ArrayList<>(entries);
        more.add(new Entry(sha256(token), role));
        return new Tokens(more);
    }

    /** The role of {@code token}, or empty when it is not one of these tokens. Constant time in the token. */
    public Optional<Role> roleOf(String token) {
        byte[] hash = sha256(token == null ? "" : token);
        Role found = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(e.hash(), hash)) {
                found = e.role();
            }
        }
        return Optional.ofNullable(found);
    }

    private static Role role(String word, String where) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "reader" -> Role.READER;
            case "admin" -> Role.ADMIN;
            default -> throw new IllegalArgumentException(where + ": unknown role '" + word
                    + "'; the roles are reader and admin");
        };
    }

    private static byte[] hashOf(String word, String where) {
        if (word.regionMatches(true, 0, HASH_PREFIX, 0, HASH_PREFIX.length())) {
            String hex = word.substring(HASH_PREFIX.length());
            if (hex.length() != 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                throw new IllegalArgumentException(where + ": '" + HASH_PREFIX + "' must be followed by the token's "
                        + "SHA-256 hash as 64 hex digits");
            }
            return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
        }
        if (word.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException(where + ": the token is " + Counts.of(word.length(), "character")
                    + " long; use at least " + MIN_TOKEN_LENGTH + " (for example: openssl rand -hex 32)");
        }
        return sha256(word);
    }

    /** The SHA-256 hash of a token's UTF-8 bytes. */
    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "Tokens[" + entries.size() + "]";
    }
}
