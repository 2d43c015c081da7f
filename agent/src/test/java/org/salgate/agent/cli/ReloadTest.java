package org.salgate.agent.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The agent program, in its own process, reads its configuration again on SIGHUP. */
@Timeout(180)
class ReloadTest {

    private static String pcml(String... protocols) {
        StringBuilder text = new StringBuilder("<platform xmlns=\"urn:salgate:pcml:1.0\">\n");
        for (String name : protocols) {
            text.append("  <protocol name=\"").append(name).append("\" type=\"dummy\" endpoint=\"virtual\">")
                    .append("<parameter name=\"sensors\" value=\"1\"/><parameter name=\"prefix\" value=\"")
                    .append(name.toUpperCase()).append("\"/></protocol>\n");
        }
        return text.append("</platform>\n").toString();
    }

    @Test
    void sighupAddsTheNewProtocolKeepsTheUnchangedAndWarnsOfAnOptionNeedingARestart(@TempDir Path dir)
            throws Exception {
        Path platform = Files.writeString(dir.resolve("platform.pcml"), pcml("a"));
        Path config = Files.writeString(dir.resolve("agent.yaml"), "port: 0\nconfig: " + platform + "\n"
                + "state-dir: " + dir.resolve("state") + "\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process agent = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                AgentMain.class.getName(), "--config-file", config.toString()).redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(agent.getInputStream(),
                StandardCharsets.UTF_8)).lines().forEach(lines::add), "agent-output");
        reader.setDaemon(true);
        reader.start();
        try {
            await(lines, "SIGHUP (systemctl reload) reads the configuration again");
            Files.writeString(platform, pcml("a", "b"));
            Files.writeString(config, "port: 0\nconfig: " + platform + "\nstate-dir: " + dir.resolve("state")
                    + "\nmax-sessions: 7\n");
            hangUp(agent, lines);
            await(lines, "reload: max-sessions changed from 10000 to 7; it takes effect when the agent is restarted");
            await(lines, "protocol b (type dummy, endpoint virtual) loaded with 1 sensor");
            await(lines, "reload: done; protocols: 0 removed, 1 added, 0 changed, 1 unchanged");

            Files.writeString(config, "port: 0\nconfig: " + dir.resolve("gone.pcml") + "\n");
            new ProcessBuilder("kill", "-HUP", Long.toString(agent.pid())).start().waitFor();
            await(lines, "reload refused, nothing changed: 'config' at " + config + ":2 names "
                    + dir.resolve("gone.pcml") + ", which does not exist");
        } finally {
            agent.destroy();
            agent.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** Sends SIGHUP until the agent says it reloads (three times at most, 20 s apart, on a loaded machine). */
    private static void hangUp(Process agent, BlockingQueue<String> lines) throws Exception {
        for (int attempt = 1; ; attempt++) {
            new ProcessBuilder("kill", "-HUP", Long.toString(agent.pid())).start().waitFor();
            try {
                await(lines, "reload: reading the configuration again", 20);
                return;
            } catch (AssertionError e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static void await(BlockingQueue<String> lines, String text) throws InterruptedException {
        await(lines, text, 40);
    }

    private static void await(BlockingQueue<String> lines, String text, int seconds) throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(1, TimeUnit.SECONDS);
            if (line != null) {
                seen.append(line).append('\n');
                if (line.contains(text)) {
                    return;
                }
            }
        }
        throw new AssertionError("the agent did not log '" + text + "'; it logged:\n" + seen);
    }
}
