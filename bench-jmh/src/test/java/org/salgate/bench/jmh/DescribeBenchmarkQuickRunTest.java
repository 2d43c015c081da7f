package org.salgate.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The describe benchmark in its quickest form, so that it cannot rot: one short iteration of each
 * way of parsing, over netty, against a real agent in this JVM. Its figures mean nothing.
 */
class DescribeBenchmarkQuickRunTest {

    @Test
    void everyWayOfParsingRunsWithListsAndDescribesAnswered() throws RunnerException {
        Options quick = new OptionsBuilder()
                .include(DescribeBenchmark.class.getName())
                .param("transport", "netty")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build();
        Set<String> ran = new TreeSet<>();
        for (RunResult run : new Runner(quick).run()) {
            for (String method : Set.of("list", "describe")) {
                Result<?> latency = run.getSecondaryResults().get(method);
                assertNotNull(latency, "no " + method + " figure; got " + run.getSecondaryResults().keySet());
                assertTrue(latency.getSampleCount() > 0, "no " + method + " was answered");
            }
            ran.add(run.getParams().getParam("parseOn"));
        }
        assertEquals(Set.of("client", "none", "transport-thread"), ran);
    }
}
