package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.Transports;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.ProtobufCodec;

/** The agent CLI, run as its own process, logs where it listens and each client that connects, is refused or leaves. */
@Timeout(90)
class AgentLogTest {

    private static final Pattern LISTENING = Pattern.compile("AgentMain - listening on 127\\.0\\.0\\.1:(\\d+) \\(netty, codec protobuf, no TLS\\)");

    private Process agent;
    private final BlockingQueue<String> log = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() throws InterruptedException {
        if (agent != null) {
            agent.destroy();
            agent.waitFor(20, TimeUnit.SECONDS);
        }
    }

    private String awaitLine(String what, Pattern pattern) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String line = log.poll(1, TimeUnit.SECONDS);
            if (line != null && pattern.matcher(line).find()) {
                return line;
            }
        }
        throw new AssertionError("the agent did not log " + what);
    }

    private static final class Replies implements ClientHandler {
        final BlockingQueue<Message> received = new LinkedBlockingQueue<>();

        @Override
        public void messageReceived(Message message) {
            received.add(message);
        }

        @Override
        public void closed(Throwable cause) {}
    }

    private static HelloReply hello(int port, String codec, String name) throws Exception {
        TransportClient client = Transports.byName("netty").createClient(ClientOptions.builder()
                .host("127.0.0.1").port(port).build());
        Replies replies = new Replies();
        client.connect(replies);
        try {
            client.send(Hello.of(codec, name));
            Message reply = replies.received.poll(20, TimeUnit.SECONDS);
            assertNotNull(reply, "no hello reply");
            return assertInstanceOf(HelloReply.class, reply);
        } finally {
            client.close();
        }
    }

    /** Starts the agent CLI as its own process, with these JVM options, and collects its log lines. */
    private void startAgent(String... jvmOptions) throws IOException {
        startAgent(List.of(jvmOptions), List.of("--dummy-sensors", "1"));
    }

    /** Starts the agent CLI on netty, loopback and a free port, with these JVM options and agent options. */
    private void startAgent(List<String> jvmOptions, List<String> agentOptions) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
        command.addAll(jvmOptions);
        command.addAll(List.of(AgentMain.class.getName(),
                "--transport", "netty", "--host", "127.0.0.1", "--port", "0"));
        command.addAll(agentOptions);
        agent = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(agent.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    log.add(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "agent-log");
        reader.setDaemon(true);
        reader.start();
    }

    @Test
    void logsTheAddressAndEachConnectAndRefusalAtInfo() throws Exception {
        startAgent();

        Matcher listening = LISTENING.matcher(awaitLine("where it listens", LISTENING));
        assertTrue(listening.find());
        int port = Integer.parseInt(listening.group(1));

        assertTrue(hello(port, ProtobufCodec.NAME, "log-test").accepted());
        awaitLine("the connect", Pattern.compile("\\[INFO\\] AgentServerHandler - client 'log-test' connected from "));

        HelloReply refused = hello(port, "json", "wrong-codec");
        assertTrue(!refused.accepted(), "a client with another codec is refused");
        awaitLine("the refusal", Pattern.compile("\\[INFO\\] AgentServerHandler - client 'wrong-codec' from .* refused: codec 'json'"));
    }

    @Test
    void countsOneProtocolAndOneSensorInTheSingular(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("one.pcml"), Pcml.write(new PlatformConfig(List.of(
                new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "1"))))));
        startAgent(List.of(), List.of("--config", config.toString()));
        awaitLine("what it loaded", Pattern.compile(
                "ProtocolManager - protocol dummy \\(type dummy, endpoint virtual\\) loaded with 1 sensor$"));
        awaitLine("the agent's totals", Pattern.compile("Agent - agent .*: 1 protocol, 1 sensor$"));
        awaitLine("the protocol's sensors", Pattern.compile(
                "AgentMain - protocol dummy \\(type dummy, endpoint virtual\\): 1 sensor: DUMMY_0$"));
    }

    @Test
    void runsWithNettysLeakDetectorOffUnlessTheOperatorSetsALevelAndLogsWhichRuns() throws Exception {
        startAgent();
        awaitLine("that the leak detector is off",
                Pattern.compile("\\[INFO\\] AgentMain - Netty's buffer leak detection: disabled "));
        stop();
        log.clear();

        startAgent("-Dio.netty.leakDetection.level=paranoid");
        awaitLine("the operator's level",
                Pattern.compile("\\[INFO\\] AgentMain - Netty's buffer leak detection: paranoid "));
    }
}
