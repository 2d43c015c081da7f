package org.salgate.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/reference/client.md is the client's option and command reference as the code renders it. */
class OptionReferenceTest {

    static final String REGENERATE = "mvn -B -pl client -am test -Dtest=OptionReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dsalgate.reference.write=true";

    @Test
    void theClientsOptionReferenceInDocsIsWhatTheCodeRenders() throws Exception {
        String rendered = OptionReference.render(ClientMain.commandLine(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter())), Environment.VARIABLES, REGENERATE);
        Path file = Path.of("..", "docs", "reference", "client.md");
        if (Boolean.getBoolean("salgate.reference.write")) {
            Files.writeString(file, rendered);
        }
        String inDocs = Files.exists(file) ? Files.readString(file) : "";
        assertEquals(rendered, inDocs, "docs/reference/client.md is not the client's options as the code has them;"
                + " regenerate it with: " + REGENERATE);
    }
}
