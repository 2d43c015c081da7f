package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.mqtt.Topics;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * The agent's MQTT bridge against a real Mosquitto that speaks only TLS, with a certificate signed by
 * a CA the test makes, and lets in only the user of its password file. The agent runs as its own
 * process, configured by its command-line options ({@code --mqtt-ca}, {@code --mqtt-username},
 * {@code --mqtt-password-file}).
 */
@Tag("mqtt")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MqttTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String USER = "gateway";
    private static final String PASSWORD = "correct horse battery staple";

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private Mosquitto broker;
    private Path caFile;

    @BeforeEach
    void startBroker() throws Exception {
        Instant now = Instant.now();
        KeyPair caKeys = Certificates.newKeyPair();
        X509Certificate ca = Certificates.issue("CN=salgate test CA", caKeys, null, caKeys.getPrivate(),
                now.minusSeconds(3600), now.plusSeconds(86_400), true, List.of());
        KeyPair brokerKeys = Certificates.newKeyPair();
        X509Certificate brokerCertificate = Certificates.issue("CN=mosquitto", brokerKeys, ca, caKeys.getPrivate(),
                now.minusSeconds(3600), now.plusSeconds(86_400), false, List.of("127.0.0.1", "localhost"));
        caFile = write("ca.pem", Certificates.toPem(ca));
        Path certificate = write("broker.pem", Certificates.toPem(brokerCertificate));
        Path key = write("broker-key.pem", Certificates.toPem(brokerKeys.getPrivate()));
        Path passwords = dir.resolve("passwords");
        Process passwd = new ProcessBuilder("mosquitto_passwd", "-b", "-c", passwords.toString(), USER, PASSWORD)
                .redirectErrorStream(true).start();
        assertTrue(passwd.waitFor(30, TimeUnit.SECONDS), "mosquitto_passwd did not finish");
        assertEquals(0, passwd.exitValue(), new String(passwd.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        broker = Mosquitto.startTls(dir, certificate, key, passwords);
        toClose.add(broker);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** A subscriber that trusts the test's CA only and logs in as the broker's user. */
    private Subscriber subscriber(String clientId, String filter) throws Exception {
        TlsConfig trust = TlsConfig.clientTrustingCa(caFile);
        Subscriber s = Subscriber.subscribe(broker.url(), clientId, filter, o -> {
            o.setSocketFactory(trust.sslContext().getSocketFactory());
            o.setHttpsHostnameVerificationEnabled(true);
            o.setUserName(USER);
            o.setPassword(PASSWORD.getBytes(StandardCharsets.UTF_8));
        });
        toClose.add(s);
        return s;
    }

    /** Starts {@code AgentMain} in its own JVM with the bridge's options; its output goes to {@code <id>.log}. */
    private Process agent(String id, String password, Path ca) throws IOException {
        return agent(id, password, ca, broker.url());
    }

    /** As {@link #agent(String, String, Path)}, to the broker at {@code url}; a null {@code ca}: no --mqtt-ca. */
    private Process agent(String id, String password, Path ca, String url) throws IOException {
        Path passwordFile = write(id + ".password", password + "\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "org.salgate.agent.cli.AgentMain", "--host", "127.0.0.1", "--port", "0", "--agent-id", id,
                "--dummy-sensors", "1", "--mqtt-url", url,
                "--mqtt-username", USER, "--mqtt-password-file", passwordFile.toString(),
                "--mqtt-store", dir.resolve(id + ".mv.db").toString(), "--mqtt-stream", "DUMMY_0@50ms",
                "--mqtt-reconnect-max", "1s"));
        if (ca != null) {
            command.addAll(List.of("--mqtt-ca", ca.toString()));
        }
        Process agent = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(dir.resolve(id + ".log").toFile()).start();
        toClose.add(() -> agent.destroyForcibly().waitFor());
        return agent;
    }

    /** Waits until the agent's log holds {@code text}, and returns the log. */
    private String awaitLog(String id, String text) throws Exception {
        Path log = dir.resolve(id + ".log");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            String now = Files.exists(log) ? Files.readString(log) : "";
            if (now.contains(text)) {
                return now;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the agent never logged '" + text + "':\n" + Files.readString(log));
    }

    @Test
    void theBridgePublishesReadingsOverTlsAsTheBrokersUser() throws Exception {
        Topics topics = new Topics("salgate", "it-tls");
        Subscriber sub = subscriber("watcher-tls", topics.all());
        agent("it-tls", PASSWORD, caFile);

        sub.await(r -> r.topic().equals(topics.status()) && r.payload().equals("online"), WAIT, "online status");
        sub.await(r -> r.topic().equals(topics.reading("DUMMY_0", "read")) && r.json().get("sequence").asLong() >= 20,
                WAIT, "20 readings of DUMMY_0 over TLS");
        List<Long> seq = sub.on(topics.reading("DUMMY_0", "read")).stream()
                .map(r -> r.json().get("sequence").asLong()).toList();
        for (int i = 0; i < seq.size(); i++) {
            assertEquals(i, seq.get(i), "readings arrive once each, in order: " + seq);
        }
        assertTrue(sub.on(topics.description("DUMMY_0")).stream().anyMatch(r -> r.payload().contains("DUMMY_0")),
                "the description is published too");
    }

    @Test
    void aWrongPasswordIsRefusedWithAClearErrorAndNothingIsPublished() throws Exception {
        Topics topics = new Topics("salgate", "it-wrong-password");
        Subscriber sub = subscriber("watcher-wrong-password", topics.all());
        Process agent = agent("it-wrong-password", "not the password", caFile);

        String log = awaitLog("it-wrong-password", "refused the bridge's credentials");
        assertTrue(log.contains("ERROR") && log.contains("user '" + USER + "'") && log.contains("--mqtt-password-file"),
                log);
        assertTrue(agent.isAlive(), "the agent keeps serving its clients while the broker refuses it:\n" + log);
        assertTrue(sub.received.isEmpty(), "a refused bridge published: " + sub.received);
    }

    @Test
    void aBrokerWhoseCertificateAnotherCaSignedIsNotTrusted() throws Exception {
        KeyPair otherKeys = Certificates.newKeyPair();
        Instant now = Instant.now();
        Path otherCa = write("other-ca.pem", Certificates.toPem(Certificates.issue("CN=another CA", otherKeys, null,
                otherKeys.getPrivate(), now.minusSeconds(3600), now.plusSeconds(86_400), true, List.of())));
        Topics topics = new Topics("salgate", "it-untrusted");
        Subscriber sub = subscriber("watcher-untrusted", topics.all());
        agent("it-untrusted", PASSWORD, otherCa);

        String log = awaitLog("it-untrusted", "TLS handshake with the MQTT broker");
        assertTrue(log.contains("ERROR") && log.contains(otherCa.toString()), log);
        assertTrue(sub.received.isEmpty(), "a bridge that does not trust the broker published: " + sub.received);
    }

    @Test
    void aTcpUrlToATlsListenerSaysTheBrokerMayRequireTls() throws Exception {
        String plainUrl = "tcp://127.0.0.1:" + broker.port();
        agent("it-tcp-to-tls", PASSWORD, null, plainUrl);

        String log = awaitLog("it-tcp-to-tls", "may require TLS");
        assertTrue(log.contains(plainUrl) && log.contains("ssl://127.0.0.1:" + broker.port()), log);
    }

    @Test
    void anSslUrlToAPlainListenerSaysTheBrokerDoesNotSpeakTls() throws Exception {
        Path plainDir = Files.createDirectories(dir.resolve("plain"));
        Mosquitto plain = Mosquitto.start(plainDir);
        toClose.add(plain);
        String sslUrl = "ssl://127.0.0.1:" + plain.port();
        agent("it-ssl-to-plain", PASSWORD, caFile, sslUrl);

        String log = awaitLog("it-ssl-to-plain", "does not speak TLS");
        assertTrue(log.contains(sslUrl) && log.contains("tcp://127.0.0.1:" + plain.port()), log);
    }
}
