package org.salgate.plugin.opcua;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.salgate.sensorml.ProtocolConfig;

/**
 * An OPC UA protocol's parameters, checked when it opens.
 *
 * @param policy {@code security-policy}: None (default) or Basic256Sha256
 * @param mode {@code security-mode}: None, Sign or SignAndEncrypt (the default with Basic256Sha256)
 * @param serverCertificate {@code server-certificate}: a file holding the server's certificate (PEM
 *        or DER) that the server must present, or null
 * @param serverPin {@code server-certificate-sha256}: the SHA-256 of the server's certificate (hex,
 *        colons allowed), or null; a secured protocol needs this or {@code server-certificate}
 * @param certificateDir {@code certificate-dir}: where the agent's application certificate is made
 *        once and kept (a secured protocol needs it), or null
 * @param user {@code user}: the user name to sign in with, or null for anonymous
 * @param passwordFile {@code password-file}: the file whose first line is the user's password
 * @param timeoutMs {@code timeout-ms}: how long a connection or a service call may take
 * @param publishingIntervalMs {@code publishing-interval-ms}: how often the server sends the
 *        subscription's notifications
 * @param samplingMs {@code sampling-ms}: the sampling interval of every channel without its own,
 *        which makes every channel monitored; -1 when not set (channels are read when asked)
 * @param browse {@code browse}: the node whose subtree {@link OpcuaProtocol#discover()} browses
 *        for variables, each served as a channel; null for none
 * @param browseDepth {@code browse-depth}: how many levels below {@code browse} are browsed
 * @param browseLimit {@code browse-limit}: the most nodes (folders, objects, variables) one
 *        discovery looks at
 */
record OpcuaSettings(Policy policy, Mode mode, Path serverCertificate, byte[] serverPin, Path certificateDir,
                     String user, Path passwordFile, int timeoutMs, int publishingIntervalMs, double samplingMs,
                     NodeId browse, int browseDepth, int browseLimit) {

    /** Levels browsed below the {@code browse} node by default, and at most. */
    static final int BROWSE_DEPTH = 4;
    static final int BROWSE_DEPTH_MAX = 16;
    /** Nodes looked at in one discovery by default, and at most. */
    static final int BROWSE_LIMIT = 1000;
    static final int BROWSE_LIMIT_MAX = 10_000;

    /** The security policies this driver offers. */
    enum Policy {
        NONE("None"), BASIC256SHA256("Basic256Sha256");

        final String word;

        Policy(String word) {
            this.word = word;
        }
    }

    /** The message security modes. */
    enum Mode {
        NONE("None"), SIGN("Sign"), SIGN_AND_ENCRYPT("SignAndEncrypt");

        final String word;

        Mode(String word) {
            this.word = word;
        }
    }

    boolean secured() {
        return policy != Policy.NONE;
    }

    static OpcuaSettings of(ProtocolConfig config) {
        Map<String, String> p = config.parameters();
        String where = "OPC UA protocol " + config.name() + ": parameter ";
        Policy policy = switch (p.getOrDefault("security-policy", "None").strip().toLowerCase(Locale.ROOT)) {
            case "none" -> Policy.NONE;
            case "basic256sha256" -> Policy.BASIC256SHA256;
            default -> throw new IllegalArgumentException(where + "security-policy '" + p.get("security-policy")
                    + "' is None or Basic256Sha256");
        };
        String modeWord = p.getOrDefault("security-mode", policy == Policy.NONE ? "None" : "SignAndEncrypt");
        Mode mode = switch (modeWord.strip().toLowerCase(Locale.ROOT)) {
            case "none" -> Mode.NONE;
            case "sign" -> Mode.SIGN;
            case "signandencrypt" -> Mode.SIGN_AND_ENCRYPT;
            default -> throw new IllegalArgumentException(where + "security-mode '" + modeWord
                    + "' is None, Sign or SignAndEncrypt");
        };
        if ((policy == Policy.NONE) != (mode == Mode.NONE)) {
            throw new IllegalArgumentException(where + "security-mode " + mode.word + " does not go with"
                    + " security-policy " + policy.word + ": security-policy None takes security-mode None,"
                    + " Basic256Sha256 takes Sign or SignAndEncrypt");
        }
        Path serverCertificate = path(p.get("server-certificate"));
        byte[] pin = null;
        if (p.containsKey("server-certificate-sha256")) {
            String hex = p.get("server-certificate-sha256").strip().replace(":", "").toLowerCase(Locale.ROOT);
            if (!hex.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException(where + "server-certificate-sha256 is the server certificate's"
                        + " SHA-256 in 64 hex digits (colons allowed), such as the output of"
                        + " 'openssl x509 -in server.pem -noout -fingerprint -sha256'");
            }
            pin = HexFormat.of().parseHex(hex);
        }
        Path certificateDir = path(p.get("certificate-dir"));
        if (policy != Policy.NONE) {
            if (serverCertificate == null && pin == null) {
                throw new IllegalArgumentException(where + "server-certificate or server-certificate-sha256 is"
                        + " missing: security-policy " + policy.word + " needs the server's certificate, trusted by"
                        + " file or pinned by its SHA-256 (this driver never trusts any certificate)");
            }
            if (certificateDir == null) {
                throw new IllegalArgumentException(where + "certificate-dir is missing: security-policy "
                        + policy.word + " needs a directory where the agent keeps its application certificate");
            }
        }
        if (serverCertificate != null && !Files.isReadable(serverCertificate)) {
            throw new IllegalArgumentException(where + "server-certificate " + serverCertificate
                    + " is not a readable file");
        }
        String user = p.get("user");
        Path passwordFile = path(p.get("password-file"));
        if ((user == null) != (passwordFile == null)) {
            throw new IllegalArgumentException(where + (user == null ? "user" : "password-file")
                    + " is missing: sign in with both user and password-file, or neither (anonymous)");
        }
        if (user != null) {
            if (mode != Mode.SIGN_AND_ENCRYPT) {
                throw new IllegalArgumentException(where + "user needs security-mode SignAndEncrypt (security-policy"
                        + " Basic256Sha256): a password is not sent over a connection that is not encrypted");
            }
            if (!Files.isReadable(passwordFile)) {
                throw new IllegalArgumentException(where + "password-file " + passwordFile
                        + " is not a readable file");
            }
        }
        double sampling = p.containsKey("sampling-ms")
                ? OpcuaChannel.decimal(where + "sampling-ms", p.get("sampling-ms"), 0, 3_600_000) : -1;
        NodeId browse = null;
        if (p.containsKey("browse")) {
            browse = NodeId.parseOrNull(p.get("browse").strip());
            if (browse == null) {
                throw new IllegalArgumentException(where + "browse '" + p.get("browse") + "' is not a node id; give"
                        + " the folder or object whose variables become sensors, such as ns=2;s=Plant or i=85"
                        + " (the Objects folder)");
            }
        } else {
            for (String needs : List.of("browse-depth", "browse-limit")) {
                if (p.containsKey(needs)) {
                    throw new IllegalArgumentException(where + needs + " applies to browsing: give parameter"
                            + " browse too (the node whose subtree is browsed)");
                }
            }
        }
        return new OpcuaSettings(policy, mode, serverCertificate, pin, certificateDir, user, passwordFile,
                whole(where + "timeout-ms", p.get("timeout-ms"), 5000, 100, 600_000),
                whole(where + "publishing-interval-ms", p.get("publishing-interval-ms"), 100, 1, 3_600_000),
                sampling, browse,
                whole(where + "browse-depth", p.get("browse-depth"), BROWSE_DEPTH, 1, BROWSE_DEPTH_MAX),
                whole(where + "browse-limit", p.get("browse-limit"), BROWSE_LIMIT, 1, BROWSE_LIMIT_MAX));
    }

    private static Path path(String text) {
        return text == null || text.isBlank() ? null : Path.of(text.strip());
    }

    private static int whole(String name, String text, int fallback, int min, int max) {
        return text == null ? fallback : (int) OpcuaChannel.decimal(name, text, min, max, true);
    }
}
