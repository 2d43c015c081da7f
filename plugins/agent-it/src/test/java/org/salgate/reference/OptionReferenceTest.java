package org.salgate.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.agent.cli.AgentMain;
import org.salgate.client.cli.ClientMain;
import picocli.CommandLine;

/**
 * docs/reference/agent.md and client.md are the two programs' option references as the code renders
 * them. They live here, in a module whose tests see both programs, so that one renderer serves both.
 */
class OptionReferenceTest {

    static final String REGENERATE = "mvn -B -pl plugins/agent-it -am test -Dtest=OptionReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dsalgate.reference.write=true";

    @Test
    void theAgentsOptionReferenceInDocsIsWhatTheCodeRenders() throws Exception {
        assertReference("agent.md", AgentMain.commandLine(), Map.of(), "the agent's options");
    }

    @Test
    void theClientsOptionReferenceInDocsIsWhatTheCodeRenders() throws Exception {
        CommandLine client = ClientMain.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        assertReference("client.md", client, ClientMain.environmentVariables(), "the client's options and commands");
    }

    private static void assertReference(String name, CommandLine program, Map<String, String> environment, String what)
            throws Exception {
        String rendered = OptionReference.render(program, environment, REGENERATE);
        Path file = Path.of("..", "..", "docs", "reference", name);
        if (Boolean.getBoolean("salgate.reference.write")) {
            Files.writeString(file, rendered);
        }
        String inDocs = Files.exists(file) ? Files.readString(file) : "";
        assertEquals(rendered, inDocs, "docs/reference/" + name + " is not " + what + " as the code has them;"
                + " regenerate it with: " + REGENERATE);
    }
}
