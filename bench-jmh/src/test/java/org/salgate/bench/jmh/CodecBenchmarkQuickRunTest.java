package org.salgate.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.salgate.wire.Codecs;

/**
 * The benchmarks in their quickest form, so that they cannot rot: every codec's reading benchmark
 * runs in this JVM for one short warm-up and one short measurement with the GC profiler. The
 * figures of such a run mean nothing; only that each benchmark ran and reported its allocation.
 */
class CodecBenchmarkQuickRunTest {

    private static final String ALLOCATED_PER_OP = "gc.alloc.rate.norm";

    @Test
    void theBenchmarksCoverEveryCodecOnTheClassPath() throws NoSuchFieldException {
        Param codecs = CodecBenchmark.class.getField("codec").getAnnotation(Param.class);
        assertEquals(Codecs.available().keySet(), new TreeSet<>(Arrays.asList(codecs.value())));
    }

    @Test
    void everyCodecsReadingBenchmarkRunsAndReportsItsAllocation() throws RunnerException {
        Options quick = new OptionsBuilder()
                .include(CodecBenchmark.class.getName() + "\\.(encode|decode)$")
                .param("message", "reading")
                .forks(0)
                .warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(100))
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build();
        Collection<RunResult> results = new Runner(quick).run();

        Map<String, Set<String>> allocationReported = new TreeMap<>();
        for (RunResult run : results) {
            String codec = run.getParams().getParam("codec");
            String benchmark = run.getParams().getBenchmark();
            Result<?> allocated = run.getSecondaryResults().entrySet().stream()
                    .filter(e -> e.getKey().endsWith(ALLOCATED_PER_OP))
                    .map(Map.Entry::getValue)
                    .findFirst().orElse(null);
            assertNotNull(allocated, benchmark + " on " + codec + " reported no " + ALLOCATED_PER_OP
                    + "; it reported " + run.getSecondaryResults().keySet());
            // Encoding makes a new array and decoding a new message: a run that counted nothing did not measure.
            assertTrue(allocated.getScore() > 0, benchmark + " on " + codec + " counted no allocation");
            allocationReported.computeIfAbsent(codec, c -> new TreeSet<>())
                    .add(benchmark.substring(benchmark.lastIndexOf('.') + 1));
        }
        Map<String, Set<String>> expected = new TreeMap<>();
        Codecs.available().keySet().forEach(c -> expected.put(c, Set.of("decode", "encode")));
        assertEquals(expected, allocationReported);
    }
}
