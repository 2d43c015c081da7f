package org.salgate.transport.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's Python client (docs/grpc/salgate_client.py, grpcio + grpcio-tools) against the agent
 * jar started as a user starts it, with {@code --transport grpc}: it must list the default agent's 28
 * sensors and print five readings of DUMMY_0 in sequence. Runs only in the Maven profile
 * {@code python}, which {@code .ci/run} enables after installing the two Python packages; the profile
 * passes the paths of the agent jar, the script and the Python interpreter.
 */
class GrpcPythonClientTest {

    private static final Pattern LISTENING = Pattern.compile("listening on \\S*:(\\d+) \\(grpc");

    private static Path required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set; run this test with the "
                    + "Maven profile 'python' (mvn -Ppython ...)");
        }
        return Path.of(value);
    }

    @Test
    @Timeout(120)
    void thePythonClientListsTheSensorsAndStreamsReadings() throws Exception {
        Path agentJar = required("salgate.agent.jar");
        Path script = required("salgate.python.client");
        String python = System.getProperty("salgate.python", "python3");
        assertTrue(Files.isRegularFile(agentJar), agentJar + " is missing; build the agent first");

        Process agent = new ProcessBuilder("java", "-jar", agentJar.toString(), "--transport", "grpc",
                "--host", "127.0.0.1", "--port", "0").redirectErrorStream(true).start();
        try {
            int port = portOf(agent);
            Process client = new ProcessBuilder(python, script.toString(), "--port", Integer.toString(port),
                    "--sensor", "DUMMY_0", "--count", "5").redirectErrorStream(true).start();
            List<String> lines = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            }
            assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the Python client did not finish");
            assertEquals(0, client.exitValue(), "the Python client failed:\n" + String.join("\n", lines));

            assertTrue(lines.contains("28 sensors"), "expected '28 sensors' in:\n" + String.join("\n", lines));
            assertEquals(28, lines.stream().filter(l -> l.matches("(DUMMY_\\d+ +dummy|[A-Z_0-9]+ +os) +IDLE")).count(),
                    "expected 20 dummy and 8 os sensor lines in:\n" + String.join("\n", lines));
            List<String> readings = lines.stream().filter(l -> l.startsWith("DUMMY_0 #")).toList();
            assertEquals(5, readings.size(), "expected 5 readings in:\n" + String.join("\n", lines));
            for (int i = 0; i < 5; i++) {
                assertTrue(readings.get(i).matches("DUMMY_0 #" + i + " \\S+ OK"), readings.get(i));
            }
        } finally {
            agent.destroy();
            if (!agent.waitFor(20, TimeUnit.SECONDS)) {
                agent.destroyForcibly();
            }
        }
    }

    /** Reads the agent's output until it says where it listens; keeps draining it afterwards. */
    private static int portOf(Process agent) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Integer> port = new CompletableFuture<>();
        StringBuilder log = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    synchronized (log) {
                        log.append(line).append('\n');
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (IOException e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IllegalStateException("the agent exited:\n" + log));
        }, "agent-output");
        reader.setDaemon(true);
        reader.start();
        return port.get(60, TimeUnit.SECONDS);
    }
}
