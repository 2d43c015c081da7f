package org.salgate.client.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.salgate.client.inmemory.FakeAgent;
import org.salgate.client.inmemory.InMemoryTransport;

/** A fake agent per test, and the CLI run against it with its exit code and output. */
abstract class CliFixture {

    FakeAgent agent;

    @BeforeEach
    void startAgent() throws IOException {
        agent = FakeAgent.start();
    }

    @AfterEach
    void stopAgent() {
        agent.close();
    }

    record Run(int code, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    /** Runs the CLI against the fake agent. */
    Run run(String... args) {
        List<String> all = new ArrayList<>(List.of("--transport", InMemoryTransport.NAME, "--port",
                Integer.toString(agent.port())));
        all.addAll(List.of(args));
        return runRaw(all.toArray(new String[0]));
    }

    static Run runRaw(String... args) {
        return runWith(Map.of(), args);
    }

    /** Runs the CLI with these environment variables and exactly these arguments. */
    static Run runWith(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ClientMain.execute(new PrintWriter(out), new PrintWriter(err), env, args);
        return new Run(code, out.toString(), err.toString());
    }
}
