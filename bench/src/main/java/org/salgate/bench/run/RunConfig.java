package org.salgate.bench.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a run is set up with; the defaults are the paper's (BENCH-SPEC section 2). Made with
 * {@link #builder()}; {@link Builder#quick()} shortens every duration for smoke tests.
 *
 * @param ratePerClient calls per second per client for an open-loop RTT with corrected histograms; 0 = closed loop
 * @param limits whether to measure the framework-free socket ceiling in the same run
 * @param security plain, TLS or both: each transport's cells run once per entry, the TLS ones named
 *        {@code <transport>+tls} (the socket ceiling stays plain)
 * @param interleave whether every server runs at once and the repetitions take turns across them
 *        (repetition 1 of every transport, then repetition 2, ...), so that each repetition of a
 *        transport can be set against the baseline's of the same round; otherwise one server at a
 *        time runs all its repetitions
 */
public record RunConfig(Level level, List<String> transports, String baseline, List<Integer> clients,
                        Set<Method> methods, int reps, int rttCalls, int rttWarmupCalls, Duration tpDuration,
                        Duration streamDuration, Duration resourceDuration, Duration agentDuration,
                        Duration streamSettle, Duration serverWarmup, double ratePerClient, boolean limits,
                        int dummySensors, Path out, boolean quick, List<Security> security,
                        boolean interleave) {

    /** Byte[] sizes of the synchronous resource test. */
    public static final List<Integer> RESOURCE_SYNC_BYTES = List.of(10, 100, 1024);
    /** Byte[] sizes of streaming and of the asynchronous resource test, in KB. */
    public static final List<Integer> STREAM_KB = List.of(20, 40, 80);

    public RunConfig {
        Objects.requireNonNull(level, "level");
        transports = List.copyOf(transports);
        clients = List.copyOf(clients);
        methods = Set.copyOf(methods);
        Objects.requireNonNull(out, "out");
        if (transports.isEmpty()) {
            throw new IllegalArgumentException("name at least one transport");
        }
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c <= 0)) {
            throw new IllegalArgumentException("client counts must be positive, got " + clients);
        }
        if (reps <= 0) {
            throw new IllegalArgumentException("--reps must be at least 1, got " + reps);
        }
        if (methods.isEmpty()) {
            throw new IllegalArgumentException("name at least one method");
        }
        security = Security.checked(security);
    }

    /** Whether any cell runs over TLS. */
    public boolean tls() {
        return security.contains(Security.TLS);
    }

    /**
     * The cell name scores are computed against: the baseline's plain cells when the run has them
     * (TLS cells are then not scored but set against their plain twins), otherwise its TLS cells.
     */
    public String scoredBaseline() {
        return security.contains(Security.PLAIN) || Security.of(baseline) == Security.TLS ? baseline
                : Security.TLS.cellName(baseline);
    }

    /** The server (cell) names of the transports, each followed by its TLS twin when both are measured. */
    public List<String> cellNames() {
        List<String> names = new java.util.ArrayList<>();
        for (String t : transportsWithBaseline()) {
            security.forEach(s -> names.add(s.cellName(t)));
        }
        return List.copyOf(names);
    }

    /** The transports measured: the baseline first, then the others in the order given. */
    public List<String> transportsWithBaseline() {
        java.util.LinkedHashSet<String> s = new java.util.LinkedHashSet<>();
        s.add(baseline);
        s.addAll(transports);
        return List.copyOf(s);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Defaults: transport level, netty/mina/xsocket/socket/http/grpc against rmi, 1-100 clients, every method, 3 reps. */
    public static final class Builder {
        private Level level = Level.TRANSPORT;
        private List<String> transports = List.of("netty", "mina", "xsocket", "socket", "http", "grpc");
        private String baseline = "rmi";
        private List<Integer> clients = List.of(1, 10, 30, 70, 100);
        private Set<Method> methods = EnumSet.of(Method.RTT, Method.TP, Method.STREAM, Method.RESOURCE_SYNC,
                Method.RESOURCE_ASYNC);
        private int reps = 3;
        private int rttCalls = 1000;
        private int rttWarmupCalls = 200;
        private Duration tp = Duration.ofSeconds(60);
        private Duration stream = Duration.ofSeconds(30);
        private Duration resource = Duration.ofSeconds(30);
        private Duration agent = Duration.ofSeconds(30);
        private Duration settle = Duration.ofSeconds(1);
        private Duration warmup = Duration.ofSeconds(10);
        private double rate;
        private boolean limits = true;
        private boolean interleave;
        private int dummySensors = 20;
        private Path out = Path.of("bench-results");
        private boolean quick;
        private List<Security> security = List.of(Security.PLAIN);

        public Builder level(Level l) {
            this.level = l;
            if (l == Level.AGENT && methods.stream().noneMatch(m -> m == Method.AGENT_SYNC || m == Method.AGENT_ASYNC)) {
                methods = EnumSet.of(Method.AGENT_SYNC, Method.AGENT_ASYNC);
            }
            return this;
        }

        public Builder transports(List<String> t) { this.transports = t; return this; }
        public Builder baseline(String b) { this.baseline = b; return this; }
        public Builder clients(List<Integer> c) { this.clients = c; return this; }
        public Builder methods(Set<Method> m) { this.methods = m; return this; }
        public Builder reps(int r) { this.reps = r; return this; }
        public Builder rttCalls(int n) { this.rttCalls = n; return this; }
        public Builder rttWarmupCalls(int n) { this.rttWarmupCalls = n; return this; }
        public Builder tpDuration(Duration d) { this.tp = d; return this; }
        public Builder streamDuration(Duration d) { this.stream = d; return this; }
        public Builder resourceDuration(Duration d) { this.resource = d; return this; }
        public Builder agentDuration(Duration d) { this.agent = d; return this; }
        public Builder streamSettle(Duration d) { this.settle = d; return this; }
        public Builder serverWarmup(Duration d) { this.warmup = d; return this; }
        public Builder ratePerClient(double r) { this.rate = r; return this; }
        public Builder limits(boolean l) { this.limits = l; return this; }
        public Builder dummySensors(int n) { this.dummySensors = n; return this; }
        public Builder out(Path p) { this.out = p; return this; }
        public Builder security(List<Security> s) { this.security = s; return this; }
        public Builder interleave(boolean i) { this.interleave = i; return this; }

        /** Every cell over TLS ({@code --tls}), the same as {@code security(List.of(TLS))}. */
        public Builder tls(boolean t) { this.security = List.of(t ? Security.TLS : Security.PLAIN); return this; }

        /** A smoke-test profile: a few seconds per cell, one repetition. Later setters still win. */
        public Builder quick() {
            quick = true;
            reps = 1;
            rttCalls = 200;
            rttWarmupCalls = 50;
            tp = Duration.ofSeconds(2);
            stream = Duration.ofSeconds(2);
            resource = Duration.ofSeconds(2);
            agent = Duration.ofSeconds(2);
            settle = Duration.ofMillis(300);
            warmup = Duration.ofSeconds(2);
            return this;
        }

        public RunConfig build() {
            return new RunConfig(level, transports, baseline, clients, methods, reps, rttCalls, rttWarmupCalls, tp,
                    stream, resource, agent, settle, warmup, rate, limits && level == Level.TRANSPORT, dummySensors,
                    out, quick, security, interleave);
        }
    }
}
