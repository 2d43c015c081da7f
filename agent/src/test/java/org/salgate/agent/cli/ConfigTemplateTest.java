package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The configuration template the packages ship (agent/src/main/config/agent.yaml) and the
 * configuration reference (docs/reference/agent-options.md) are what the code renders.
 */
class ConfigTemplateTest {

    static final String REGENERATE = "mvn -B -pl agent -am test -Dtest=ConfigTemplateTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dsalgate.reference.write=true";

    @Test
    void theShippedConfigurationFileHoldsEveryOptionAsTheCodeHasIt() throws Exception {
        assertRendered(Path.of("src", "main", "config", "agent.yaml"),
                ConfigTemplate.yaml(AgentMain.commandLine().getCommandSpec()));
    }

    @Test
    void theConfigurationReferenceInDocsIsWhatTheCodeRenders() throws Exception {
        assertRendered(Path.of("..", "docs", "reference", "agent-options.md"),
                ConfigTemplate.markdown(AgentMain.commandLine().getCommandSpec(), REGENERATE));
    }

    @Test
    void theShippedFileIsAValidConfigurationThatListensOnLoopback(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path file = Path.of("src", "main", "config", "agent.yaml");
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = AgentMain.commandLine(java.util.Map.of());
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        assertEquals(0, cl.execute("--config-file", file.toString(), "--print-config"), err.toString());
        org.junit.jupiter.api.Assertions.assertTrue(out.toString().contains("\nhost: 127.0.0.1\n"), out.toString());
    }

    private static void assertRendered(Path file, String rendered) throws Exception {
        if (Boolean.getBoolean("salgate.reference.write")) {
            Files.writeString(file, rendered);
        }
        String committed = Files.exists(file) ? Files.readString(file) : "";
        assertEquals(rendered, committed, file + " is not what the agent's options render; regenerate it with: "
                + REGENERATE);
    }
}
