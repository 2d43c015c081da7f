package org.salgate.transport.http.it.browser;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.salgate.transport.tls.Certificates;

/**
 * The agent jar (system property {@value #AGENT_JAR}) run as a program as the README's "serve another
 * machine securely" recipe runs it: the HTTP transport on every interface, TLS with a PEM certificate
 * for 127.0.0.1, and a tokens file with an admin and a reader token.
 */
final class SecuredAgentProgram implements AutoCloseable {

    static final String AGENT_JAR = "salgate.agent.jar";
    static final String ADMIN = "page-admin-0123456789abcdef";
    static final String READER = "page-reader-0123456789abcdef";
    private static final Pattern LISTENING = Pattern.compile("listening on 0\\.0\\.0\\.0:(\\d+) \\(");
    private static final long START_TIMEOUT_MILLIS = 60_000;

    private final Path dir;
    private final Process process;
    private final int port;
    private final String spkiSha256;

    private SecuredAgentProgram(Path dir, Process process, int port, String spkiSha256) {
        this.dir = dir;
        this.process = process;
        this.port = port;
        this.spkiSha256 = spkiSha256;
    }

    static SecuredAgentProgram start() throws IOException, InterruptedException {
        String jar = System.getProperty(AGENT_JAR);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the agent jar (system property " + AGENT_JAR + ") is missing: '" + jar
                    + "'; build it with -am (mvn -pl transports/http-it -am verify -P browser)");
        }
        Path dir = Files.createTempDirectory("salgate-secured-page-");
        Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("127.0.0.1"), 2);
        Path cert = Files.writeString(dir.resolve("agent-cert.pem"), Certificates.toPem(identity.certificate()));
        Path key = Files.writeString(dir.resolve("agent-key.pem"), Certificates.toPem(identity.key()));
        Path tokens = Files.write(dir.resolve("tokens.txt"), List.of(ADMIN + " admin", READER + " reader"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-------"));
        Path output = dir.resolve("agent.log");
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar, "--transport", "http", "--host", "0.0.0.0", "--port", "0",
                "--tls-cert", cert.toString(), "--tls-key", key.toString(), "--tokens", tokens.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline && process.isAlive()) {
            Matcher m = LISTENING.matcher(Files.readString(output, StandardCharsets.UTF_8));
            if (m.find()) {
                return new SecuredAgentProgram(dir, process, Integer.parseInt(m.group(1)),
                        spkiSha256(identity.certificate().getPublicKey().getEncoded()));
            }
            Thread.sleep(50);
        }
        process.destroyForcibly().waitFor();
        throw new IllegalStateException("the secured agent did not start: " + Files.readString(output, StandardCharsets.UTF_8));
    }

    /** Base64 of the SHA-256 of a DER SubjectPublicKeyInfo, as Chromium's --ignore-certificate-errors-spki-list takes it. */
    private static String spkiSha256(byte[] subjectPublicKeyInfo) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(subjectPublicKeyInfo));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    String url() {
        return "https://127.0.0.1:" + port + "/";
    }

    /** The pin of the agent's one certificate key, for Chromium to trust it and nothing else. */
    String spkiSha256() {
        return spkiSha256;
    }

    List<String> outputLines() throws IOException {
        return Files.readAllLines(dir.resolve("agent.log"), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
