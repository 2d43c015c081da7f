package org.salgate.plugin.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.salgate.plugin.spi.Settings;
import org.salgate.sensorml.ProtocolConfig;

/**
 * An SNMP protocol's parameters, checked when it opens. Secrets are read from files named by the
 * parameters ({@code community-file}, {@code auth-password-file}, {@code priv-password-file}), never
 * written in the PCML; the files' trailing line break is dropped.
 *
 * @param version {@code 2c} or {@code 3}
 * @param community the v2c community (also the one traps must carry), or null for v3
 * @param user the v3 user (USM security name), or null for v2c
 * @param authPassword the v3 authentication (SHA) password, or null for noAuthNoPriv
 * @param privPassword the v3 privacy (AES-128) password, or null for no privacy
 * @param timeoutMs how long a request waits for the device's answer, per try
 * @param retries how many times an unanswered request is sent again
 * @param maxPerRequest the most OIDs one GET asks for; a batch with more is sent as several
 * @param trapPort the UDP port on which traps and informs are received, or 0 for none
 * @param trapAddress the address the trap port is opened on: 127.0.0.1 unless {@code trap-address}
 *                    says otherwise; beyond loopback, only for authenticated (v3) traps unless
 *                    {@code trap-insecure} is true
 * @param walk the table walked to find channels, or null for none
 */
record SnmpSettings(String version, String community, String user, String authPassword, String privPassword,
                    int timeoutMs, int retries, int maxPerRequest, int trapPort, InetAddress trapAddress,
                    SnmpWalk walk) {

    /**
     * @throws IllegalArgumentException naming the parameter that is wrong and what it should be
     */
    static SnmpSettings of(ProtocolConfig config) {
        Map<String, String> p = config.parameters();
        String version = p.getOrDefault("version", "2c").strip().toLowerCase(Locale.ROOT);
        String where = "SNMP protocol " + config.name() + ": ";
        int timeoutMs = number(where, p, "timeout-ms", 1000, 10, 60_000);
        int retries = number(where, p, "retries", 1, 0, 10);
        int max = number(where, p, "max-oids-per-request", 50, 1, 1000);
        int trapPort = number(where, p, "trap-port", 0, 0, 65535);
        InetAddress trapAddress = trapAddress(where, p, trapPort);
        boolean trapInsecure = flag(where, p, "trap-insecure");
        SnmpWalk walk = SnmpWalk.of(where, p, number(where, p, "walk-max-rows", 500, 1, 10_000));
        SnmpSettings settings = switch (version) {
            case "2c" -> {
                for (String v3 : new String[] {"user", "auth-password-file", "priv-password-file"}) {
                    if (p.containsKey(v3)) {
                        throw new IllegalArgumentException(where + "parameter " + v3 + " is for version 3;"
                                + " this protocol is version 2c (parameter version)");
                    }
                }
                String community = secret(where, p, "community-file");
                if (community == null) {
                    throw new IllegalArgumentException(where + "version 2c needs parameter community-file, a file"
                            + " holding the community (such as /etc/salgate/snmp-community, readable by the agent only)");
                }
                yield new SnmpSettings(version, community, null, null, null, timeoutMs, retries, max, trapPort,
                        trapAddress, walk);
            }
            case "3" -> {
                if (p.containsKey("community-file")) {
                    throw new IllegalArgumentException(where + "parameter community-file is for version 2c;"
                            + " version 3 authenticates parameter user with auth-password-file");
                }
                String user = p.get("user");
                if (user == null || user.isBlank()) {
                    throw new IllegalArgumentException(where + "version 3 needs parameter user, the USM user name");
                }
                String auth = secret(where, p, "auth-password-file");
                String priv = secret(where, p, "priv-password-file");
                if (priv != null && auth == null) {
                    throw new IllegalArgumentException(where + "priv-password-file needs auth-password-file:"
                            + " SNMPv3 has no privacy without authentication");
                }
                for (String pass : new String[] {auth, priv}) {
                    if (pass != null && pass.length() < 8) {
                        throw new IllegalArgumentException(where + "an SNMPv3 password has at least 8 characters"
                                + " (RFC 3414); one of the password files holds " + pass.length());
                    }
                }
                yield new SnmpSettings(version, null, user.strip(), auth, priv, timeoutMs, retries, max, trapPort,
                        trapAddress, walk);
            }
            default -> throw new IllegalArgumentException(where + "parameter version '" + p.get("version")
                    + "' is not an SNMP version this plugin speaks: write 2c or 3");
        };
        if (!trapAddress.isLoopbackAddress() && settings.authPassword() == null && !trapInsecure) {
            throw new IllegalArgumentException(where + "parameter trap-address " + trapAddress.getHostAddress()
                    + " takes traps from beyond this host, where " + (version.equals("2c")
                    ? "a v2c trap's community travels in clear" : "a noAuthNoPriv trap is not authenticated")
                    + " and anyone can forge one: use version 3 with auth-password-file (authenticated traps), or"
                    + " set parameter trap-insecure to true to take such traps from the network anyway");
        }
        return settings;
    }

    /** Where the trap port listens: parameter trap-address, 127.0.0.1 by default. */
    private static InetAddress trapAddress(String where, Map<String, String> p, int trapPort) {
        String text = p.get("trap-address");
        if (text == null) {
            return InetAddress.getLoopbackAddress();
        }
        if (trapPort == 0) {
            throw new IllegalArgumentException(where + "parameter trap-address goes with trap-port, the UDP port"
                    + " the device sends its traps to (such as 1162)");
        }
        try {
            return InetAddress.getByName(text.strip());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(where + "parameter trap-address '" + text + "' is not an address of"
                    + " this host (such as 127.0.0.1, 192.0.2.10 or 0.0.0.0 for every interface)", e);
        }
    }

    private static boolean flag(String where, Map<String, String> p, String name) {
        String text = p.getOrDefault(name, "false").strip();
        if (!text.equals("true") && !text.equals("false")) {
            throw new IllegalArgumentException(where + "parameter " + name + " '" + text + "' is true or false");
        }
        return text.equals("true");
    }

    /** The content of the file parameter {@code name} names, or null when it is not given. */
    private static String secret(String where, Map<String, String> p, String name) {
        String file = p.get(name);
        if (file == null) {
            return null;
        }
        Path path = Path.of(file.strip());
        try {
            String text = Files.readString(path, StandardCharsets.UTF_8);
            String secret = text.endsWith("\r\n") ? text.substring(0, text.length() - 2)
                    : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
            if (secret.isEmpty()) {
                throw new IllegalArgumentException(where + "parameter " + name + ": file " + path + " is empty");
            }
            return secret;
        } catch (IOException e) {
            throw new IllegalArgumentException(where + "parameter " + name + ": cannot read file " + path + " ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); write the secret in a file the agent can read", e);
        }
    }

    private static int number(String where, Map<String, String> p, String name, int fallback, int min, int max) {
        return Settings.wholeNumber(where + "parameter " + name, p.get(name), fallback, min, max);
    }
}
