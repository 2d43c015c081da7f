package org.salgate.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/reference/agent.md is the agent's option reference as the code renders it. */
class OptionReferenceTest {

    static final String REGENERATE = "mvn -B -pl agent -am test -Dtest=OptionReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dsalgate.reference.write=true";

    @Test
    void theAgentsOptionReferenceInDocsIsWhatTheCodeRenders() throws Exception {
        String rendered = OptionReference.render(AgentMain.commandLine(), Map.of(), REGENERATE);
        Path file = Path.of("..", "docs", "reference", "agent.md");
        if (Boolean.getBoolean("salgate.reference.write")) {
            Files.writeString(file, rendered);
        }
        String inDocs = Files.exists(file) ? Files.readString(file) : "";
        assertEquals(rendered, inDocs, "docs/reference/agent.md is not the agent's options as the code has them;"
                + " regenerate it with: " + REGENERATE);
    }
}
