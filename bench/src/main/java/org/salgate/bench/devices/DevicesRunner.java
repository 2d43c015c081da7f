package org.salgate.bench.devices;

import com.ghgande.j2mod.modbus.ModbusException;
import com.ghgande.j2mod.modbus.facade.ModbusTCPMaster;
import com.ghgande.j2mod.modbus.procimg.SimpleRegister;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.salgate.agent.Agent;
import org.salgate.bench.sample.ProcStat;
import org.salgate.client.SalClient;
import org.salgate.transport.bridge.BridgeSession;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.model.Call;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.model.StreamCounts;
import org.salgate.model.Value;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;

/**
 * Runs {@code bench devices}: the agent, in the bench's JVM, polling Modbus TCP devices through its
 * Modbus plugin, with clients on loopback. Device {@code d} is protocol {@code dev<d>} on its own
 * port, channel {@code r<j>} its holding register {@code j} (uint16, holding {@code j}). In each
 * repetition, with fresh agents:
 * <ol>
 *   <li>poll: one client reads {@code dev0.r0} back to back through the agent, and j2mod's own
 *       {@link ModbusTCPMaster} reads register 0 of the same device back to back (the ceiling), for
 *       the same time, the order alternating between repetitions;</li>
 *   <li>batch: one poll reads K channels of device 0 at once (K reads sent together, the next poll
 *       when all answered); the server counts the Modbus requests each poll made;</li>
 *   <li>latency: a stream of {@code dev0.r0} at the interval while a j2mod master writes register 0
 *       at random moments; from each write to the client seeing its value;</li>
 *   <li>stream: M devices of {@code registers} channels, every channel streamed at the interval by
 *       clients each taking a share of the devices; what arrives against what the interval asks,
 *       the ticks the agent skipped, the agent's CPU and the JVM's memory.</li>
 * </ol>
 */
public final class DevicesRunner {

    private static final long HISTOGRAM_MAX_MICROS = 60_000_000L;
    private static final int MODBUS_TIMEOUT_MS = 2000;
    private static final int UNIT = 1;
    private static final String DEVICE_SENSOR = "dev0.r0";
    /** A sensor of the agent's own (the dummy plugin), read over the same connection: the agent without a device. */
    private static final String DUMMY_SENSOR = "DUMMY_0";

    private final DevicesConfig config;
    private final PrintStream console;
    private final List<DevicesResult.Measurement> measurements = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final List<String> errorReadings = new ArrayList<>();
    private DeviceServer server;

    public DevicesRunner(DevicesConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    public DevicesResult run() throws IOException, InterruptedException {
        Instant started = Instant.now();
        Files.createDirectories(config.out());
        if (!ThreadCpu.supported()) {
            problems.add("this JVM does not measure thread CPU time: the agent's CPU is left out");
        }
        int registers = Math.max(config.registers(), config.firstDeviceRegisters());
        server = config.server().equals("pymodbus")
                ? new PymodbusDeviceServer(config.maxDevices(), registers, config.out())
                : new JvmDeviceServer(config.maxDevices(), registers);
        String described = server.describe();
        console.printf(Locale.ROOT, "devices: %s; %d devices, %d reps, roughly %.0f s; results in %s%n", described,
                config.maxDevices(), config.reps(), config.estimateSeconds(), config.out());
        try {
            for (int rep = 1; rep <= config.reps(); rep++) {
                oneDevice(rep);
                for (int k : config.batchSizes()) {
                    if (k > 1) {
                        stream(rep, 1, k);
                    }
                }
                for (int m : config.deviceCounts()) {
                    stream(rep, m, config.registers());
                }
                int r = rep;
                Consumer<String> problem = p -> {
                    if (!problems.contains(p)) {
                        problems.add(p);
                    }
                };
                if (config.rows().contains("onewire")) {
                    new OnewireRow(config, console).run(rep, (cell, m) -> record(cell, r, m), problem);
                }
                if (config.rows().contains("serial")) {
                    new SerialRow(config, console).run(rep, (cell, m) -> record(cell, r, m), problem);
                }
                opcua(rep);
            }
        } finally {
            server.close();
        }
        if (config.rows().contains("snmp")) {
            SnmpRow.run(config, console, measurements, problems);
        }
        synchronized (errorReadings) {
            return new DevicesResult(config, described, List.copyOf(measurements), List.copyOf(problems),
                    List.copyOf(errorReadings), started, Instant.now());
        }
    }

    /** The cells on device 0: poll against the ceiling, batches, latency; one agent for them all. */
    private void oneDevice(int rep) throws IOException, InterruptedException {
        try (Agent agent = agent(1, config.firstDeviceRegisters(), true);
             SalClient client = client(agent)) {
            awaitConnected(client, List.of("dev0.r0"));
            poll(rep, agent, client);
            for (int k : config.batchSizes()) {
                batch(rep, client, k);
            }
            latency(rep, client);
        } catch (ModbusException | ExecutionException | TimeoutException e) {
            problems.add("rep " + rep + ", device 0: " + message(e));
        }
    }

    /** The OPC UA row: its own server, the agent against Milo's client alone ({@link OpcuaRow}). */
    private void opcua(int rep) {
        try {
            new OpcuaRow(config, console).run(rep, this::record);
        } catch (Exception e) {
            problems.add("rep " + rep + ", opcua: " + message(e));
        }
    }

    // ---- poll: through the agent against j2mod's own client

    private void poll(int rep, Agent agent, SalClient client) throws ModbusException, IOException,
            InterruptedException, ExecutionException, TimeoutException {
        long nanos = config.pollDuration().toNanos();
        try (Master master = new Master(server.ports().get(0));
             InProcess inProcess = new InProcess(agent)) {
            inProcess.readFor(DEVICE_SENSOR, nanos / 10);
            // a few of each first, so neither side pays for its first calls inside the window
            readThroughAgent(client, DEVICE_SENSOR, nanos / 10);
            readThroughAgent(client, DUMMY_SENSOR, nanos / 10);
            master.readFor(nanos / 10, new long[1]);
            // the order alternates between repetitions, so that neither side always goes first
            boolean agentFirst = rep % 2 == 1;
            double[] ceiling = agentFirst ? null : ceiling(master, nanos);
            long requests0 = server.requests();
            double[] agentSide = readThroughAgent(client, DEVICE_SENSOR, nanos);
            long requests1 = server.requests();
            double[] dummy = readThroughAgent(client, DUMMY_SENSOR, nanos);
            double inProcessPerSecond = inProcess.readFor(DEVICE_SENSOR, nanos);
            if (agentFirst) {
                ceiling = ceiling(master, nanos);
            }
            double perSecond = agentSide[0];
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("agent_reads_per_s", perSecond);
            m.put("ceiling_reads_per_s", ceiling[0]);
            m.put("ratio_to_ceiling", perSecond / ceiling[0]);
            m.put("in_process_reads_per_s", inProcessPerSecond);
            m.put("in_process_ratio_to_ceiling", inProcessPerSecond / ceiling[0]);
            m.put("agent_read_p50_us", agentSide[2]);
            m.put("agent_read_p99_us", agentSide[3]);
            m.put("agent_errors", agentSide[1]);
            m.put("dummy_reads_per_s", dummy[0]);
            m.put("dummy_read_p50_us", dummy[2]);
            m.put("device_over_dummy", perSecond / dummy[0]);
            m.put("server_requests_per_agent_read", (requests1 - requests0) / agentSide[4]);
            m.put("server_requests_per_ceiling_read", ceiling[1]);
            record("poll 1x1", rep, m);
            console.printf(Locale.ROOT, "  rep %d  poll 1x1       agent %8.0f reads/s  j2mod %8.0f reads/s  ratio %.2f  (dummy sensor %.0f reads/s)%n",
                    rep, perSecond, ceiling[0], perSecond / ceiling[0], dummy[0]);
        }
    }

    /**
     * Reads through an in-process session of the agent (what its MQTT bridge and REST API use): the
     * agent's dispatch and the device's lane, without a client, a connection or a codec.
     */
    private static final class InProcess implements AutoCloseable {
        private final BridgeSession session;

        InProcess(Agent agent) throws InterruptedException, ExecutionException, TimeoutException, IOException {
            session = agent.openSession("bench-in-process", () -> true, new BridgeSession.Sink() {
                @Override
                public void pushed(Message message) {
                }

                @Override
                public void closed(boolean byAgent) {
                }
            });
            HelloReply reply = session.hello("bench-in-process", agent.codecName(), agent.inProcessCredentials())
                    .get(10, TimeUnit.SECONDS);
            if (!reply.accepted()) {
                throw new IOException("the agent refused an in-process session: " + reply.error());
            }
        }

        /** Back-to-back reads of {@code sensor} for {@code nanos}: reads/s. */
        double readFor(String sensor, long nanos) throws InterruptedException, ExecutionException, TimeoutException {
            Call read = new Call.Execute(sensor, "read", Map.of());
            long start = System.nanoTime();
            long end = start + nanos;
            long reads = 0;
            long now;
            do {
                session.call(read).get(10, TimeUnit.SECONDS);
                reads++;
                now = System.nanoTime();
            } while (now < end);
            return reads / ((now - start) / 1e9);
        }

        @Override
        public void close() {
            session.closeByCaller();
        }
    }

    /** j2mod's own reads for {@code nanos}: {reads/s, server requests per read}. */
    private double[] ceiling(Master master, long nanos) throws ModbusException, IOException {
        long requests0 = server.requests();
        long[] reads = new long[1];
        double perSecond = master.readFor(nanos, reads);
        return new double[] {perSecond, (server.requests() - requests0) / (double) reads[0]};
    }

    /** Back-to-back reads of a sensor: {reads/s, errors, p50 us, p99 us, reads}. */
    private double[] readThroughAgent(SalClient client, String sensor, long nanos) throws InterruptedException,
            ExecutionException, TimeoutException {
        Histogram h = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        long errors = 0;
        long start = System.nanoTime();
        long end = start + nanos;
        long now;
        do {
            long t0 = System.nanoTime();
            Reading r = client.execute(sensor, "read", null).get(10, TimeUnit.SECONDS);
            now = System.nanoTime();
            if (r.status() != Reading.Status.OK) {
                errors++;
                noteError("poll", r);
            }
            h.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, (now - t0) / 1000)));
        } while (now < end);
        double seconds = (now - start) / 1e9;
        return new double[] {h.getTotalCount() / seconds, errors, h.getValueAtPercentile(50),
                h.getValueAtPercentile(99), h.getTotalCount()};
    }

    // ---- batch: K channels of one device read in one poll

    private void batch(int rep, SalClient client, int k) throws IOException, InterruptedException,
            ExecutionException, TimeoutException {
        for (int i = 0; i < 3; i++) {
            pollOnce(client, k, null);
        }
        Histogram h = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        long[] counts = new long[2];
        long requests0 = server.requests();
        for (int i = 0; i < config.polls(); i++) {
            long t0 = System.nanoTime();
            pollOnce(client, k, counts);
            h.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, (System.nanoTime() - t0) / 1000)));
        }
        long requests = server.requests() - requests0;
        double polls = config.polls();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("registers", (double) k);
        m.put("polls", polls);
        m.put("requests_per_poll", requests / polls);
        m.put("readings_ok_per_poll", counts[0] / polls);
        m.put("errors_per_poll", counts[1] / polls);
        m.put("poll_p50_us", (double) h.getValueAtPercentile(50));
        m.put("poll_p99_us", (double) h.getValueAtPercentile(99));
        // the same polls through the Modbus plugin alone, one read(List) call each
        Histogram d = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        long driverOk = 0;
        try (DriverAlone driver = new DriverAlone(protocol(0, config.firstDeviceRegisters()))) {
            driver.read(k);
            long driver0 = server.requests();
            for (int i = 0; i < config.polls(); i++) {
                long t0 = System.nanoTime();
                driverOk += driver.read(k);
                d.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, (System.nanoTime() - t0) / 1000)));
            }
            m.put("driver_requests_per_poll", (server.requests() - driver0) / polls);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("the Modbus plugin alone failed a poll of " + k + ": " + message(e), e);
        }
        m.put("driver_readings_ok_per_poll", driverOk / polls);
        m.put("driver_poll_p50_us", (double) d.getValueAtPercentile(50));
        record("batch 1x" + k, rep, m);
        console.printf(Locale.ROOT, "  rep %d  batch 1x%-6d %6.2f requests/poll (driver alone %.2f)  %6.1f ok/poll"
                + "  %5.1f errors/poll  poll p50 %.0f us%n", rep, k, requests / polls,
                m.get("driver_requests_per_poll"), counts[0] / polls, counts[1] / polls,
                (double) h.getValueAtPercentile(50));
    }

    /** One poll: reads of dev0.r0 to dev0.r(k-1) sent together; counts {ok, errors} when given. */
    private void pollOnce(SalClient client, int k, long[] counts) throws InterruptedException, ExecutionException,
            TimeoutException {
        List<CompletableFuture<Reading>> reads = new ArrayList<>(k);
        for (int j = 0; j < k; j++) {
            reads.add(client.execute("dev0.r" + j, "read", null));
        }
        CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        if (counts != null) {
            for (CompletableFuture<Reading> f : reads) {
                Reading r = f.join();
                if (r.status() == Reading.Status.OK) {
                    counts[0]++;
                } else {
                    counts[1]++;
                    noteError("batch 1x" + k, r);
                }
            }
        }
    }

    // ---- latency: a register change on the device to a client seeing it

    private void latency(int rep, SalClient client) throws ModbusException, InterruptedException,
            ExecutionException, TimeoutException {
        Map<Long, Long> written = new ConcurrentHashMap<>();
        Histogram h = new Histogram(HISTOGRAM_MAX_MICROS, 3);
        AtomicLong seen = new AtomicLong();
        Object lock = new Object();
        StreamListener listener = reading -> {
            long now = System.nanoTime();
            Long v = number(reading);
            Long t0 = v == null ? null : written.remove(v);
            if (t0 != null) {
                synchronized (lock) {
                    h.recordValue(Math.min(HISTOGRAM_MAX_MICROS, Math.max(1, (now - t0) / 1000)));
                    seen.incrementAndGet();
                    lock.notifyAll();
                }
            }
        };
        Random random = new Random(rep);
        long missed = 0;
        try (Master master = new Master(server.ports().get(0))) {
            SensorStream stream = client.stream("dev0.r0", "read", null, config.intervalMs(), listener)
                    .get(10, TimeUnit.SECONDS);
            try {
                Thread.sleep(2 * config.intervalMs());
                for (int c = 1; c <= config.latencyChanges(); c++) {
                    long value = 1000 + (rep * 7919L + c) % 60000;
                    long before = seen.get();
                    written.put(value, System.nanoTime());
                    master.write(0, (int) value);
                    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * config.intervalMs() + 1000);
                    synchronized (lock) {
                        while (seen.get() == before && System.nanoTime() < deadline) {
                            lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                        }
                    }
                    if (written.remove(value) != null) {
                        missed++;
                    }
                    // the next change at a random phase of the stream's ticks
                    Thread.sleep(random.nextInt((int) Math.max(1, config.intervalMs())));
                }
            } finally {
                stream.stop().get(10, TimeUnit.SECONDS);
                master.write(0, 0);
            }
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("changes", (double) config.latencyChanges());
        m.put("changes_seen", (double) seen.get());
        m.put("changes_missed", (double) missed);
        m.put("interval_ms", (double) config.intervalMs());
        m.put("latency_p50_ms", h.getValueAtPercentile(50) / 1000.0);
        m.put("latency_p99_ms", h.getValueAtPercentile(99) / 1000.0);
        m.put("latency_max_ms", h.getMaxValue() / 1000.0);
        record("latency 1x1", rep, m);
        console.printf(Locale.ROOT, "  rep %d  latency 1x1    %d/%d changes seen  p50 %.1f ms  p99 %.1f ms (interval %d"
                + " ms)%n", rep, seen.get(), config.latencyChanges(), h.getValueAtPercentile(50) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, config.intervalMs());
    }

    // ---- stream: M devices x R channels, every channel streamed

    private void stream(int rep, int devices, int registers) throws IOException, InterruptedException {
        String cell = "stream " + devices + "x" + registers;
        int clientCount = Math.min(config.clients(), devices);
        List<SalClient> clients = new ArrayList<>();
        List<SensorStream> streams = new ArrayList<>();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        StreamListener listener = r -> {
            if (r.status() == Reading.Status.OK) {
                ok.incrementAndGet();
            } else {
                failed.incrementAndGet();
                noteError(cell, r);
            }
        };
        try (Agent agent = agent(devices, registers, false)) {
            for (int c = 0; c < clientCount; c++) {
                clients.add(client(agent));
            }
            List<String> firsts = new ArrayList<>();
            for (int d = 0; d < devices; d++) {
                firsts.add("dev" + d + ".r0");
            }
            awaitConnected(clients.get(0), firsts);
            List<CompletableFuture<SensorStream>> starting = new ArrayList<>();
            for (int d = 0; d < devices; d++) {
                SalClient c = clients.get(d % clientCount);
                for (int j = 0; j < registers; j++) {
                    starting.add(c.stream("dev" + d + ".r" + j, "read", null, config.intervalMs(), listener));
                }
            }
            for (CompletableFuture<SensorStream> f : starting) {
                streams.add(f.get(30, TimeUnit.SECONDS));
            }
            Thread.sleep(config.warmup().toMillis());
            ProcStat self = new ProcStat(ProcessHandle.current().pid());
            long t0 = System.nanoTime();
            long ok0 = ok.get();
            long failed0 = failed.get();
            StreamCounts totals0 = agent.streamTotals();
            long requests0 = server.requests();
            Map<Long, Long> cpu0 = ThreadCpu.agentThreads();
            long process0 = ThreadCpu.process();
            long serverCpu0 = server.cpuNanos();
            Thread.sleep(config.duration().toMillis());
            long received = ok.get() - ok0;
            long errors = failed.get() - failed0;
            StreamCounts totals1 = agent.streamTotals();
            long requests = server.requests() - requests0;
            long agentCpu = ThreadCpu.between(cpu0, ThreadCpu.agentThreads());
            long process = ThreadCpu.process() - process0;
            long serverCpu = serverCpu0 < 0 ? -1 : server.cpuNanos() - serverCpu0;
            double seconds = (System.nanoTime() - t0) / 1e9;
            ProcStat.Reading mem = self.read();
            long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();

            long lifeSkipped = 0;
            long lifeDropped = 0;
            for (SensorStream s : streams) {
                s.stop();
            }
            for (SensorStream s : streams) {
                StreamCounts counts = s.counts().get(10, TimeUnit.SECONDS);
                lifeSkipped += counts.skipped();
                lifeDropped += counts.dropped();
            }
            int channels = devices * registers;
            double expected = channels * 1000.0 / config.intervalMs();
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("devices", (double) devices);
            m.put("channels", (double) channels);
            m.put("clients", (double) clientCount);
            m.put("seconds", seconds);
            m.put("expected_per_s", expected);
            m.put("received_per_s", received / seconds);
            m.put("received_over_expected", received / seconds / expected);
            m.put("error_readings", (double) errors);
            m.put("missed_ticks", Math.max(0, expected * seconds - received - errors));
            m.put("agent_skipped", (double) (totals1.skipped() - totals0.skipped()));
            m.put("agent_dropped", (double) (totals1.dropped() - totals0.dropped()));
            m.put("streams_skipped_life", (double) lifeSkipped);
            m.put("streams_dropped_life", (double) lifeDropped);
            m.put("server_requests_per_s", requests / seconds);
            m.put("requests_per_reading", received + errors == 0 ? Double.NaN : (double) requests / (received + errors));
            m.put("requests_per_tick", requests / (seconds * devices * 1000.0 / config.intervalMs()));
            m.put("agent_cpu_pct", ThreadCpu.supported() ? 100.0 * agentCpu / (seconds * 1e9) : Double.NaN);
            m.put("jvm_cpu_pct", process < 0 ? Double.NaN : 100.0 * process / (seconds * 1e9));
            m.put("server_cpu_pct", serverCpu < 0 ? Double.NaN : 100.0 * serverCpu / (seconds * 1e9));
            m.put("jvm_rss_mb", mem.rssBytes() / 1e6);
            m.put("jvm_heap_used_mb", heap / 1e6);
            m.put("jvm_threads", (double) mem.threads());
            record(cell, rep, m);
            console.printf(Locale.ROOT, "  rep %d  %-14s %8.0f of %6.0f readings/s  %d errors  %.0f skipped (agent)"
                    + "  %.0f requests/s  agent CPU %.0f %%  RSS %.0f MB%n", rep, cell, received / seconds, expected,
                    errors, m.get("agent_skipped"), requests / seconds, m.get("agent_cpu_pct"), mem.rssBytes() / 1e6);
        } catch (ExecutionException | TimeoutException e) {
            problems.add("rep " + rep + ", " + cell + ": " + message(e));
        } finally {
            for (SalClient c : clients) {
                c.close();
            }
        }
    }

    // ---- helpers

    /**
     * An agent in this JVM with {@code devices} Modbus protocols of {@code registers} channels, each
     * device allowed, and with {@code dummy} one dummy sensor besides.
     */
    private Agent agent(int devices, int registers, boolean dummy) throws IOException {
        List<ProtocolConfig> protocols = new ArrayList<>();
        if (dummy) {
            protocols.add(new ProtocolConfig("dummy", "dummy", "virtual", Map.of("sensors", "1")));
        }
        List<String> allowed = new ArrayList<>();
        for (int d = 0; d < devices; d++) {
            protocols.add(protocol(d, registers));
            allowed.add("127.0.0.1:" + server.ports().get(d));
        }
        return Agent.builder().port(0).agentId("bench-devices").platform(new PlatformConfig(protocols))
                .deviceTargets(allowed).start();
    }

    /** Device {@code d} as a Modbus protocol {@code dev<d>} whose channel {@code r<j>} is holding register j. */
    private ProtocolConfig protocol(int d, int registers) {
        List<ChannelConfig> channels = new ArrayList<>();
        for (int j = 0; j < registers; j++) {
            channels.add(ChannelConfig.read("r" + j, "1",
                    Map.of("table", "holding", "address", Integer.toString(j), "type", "uint16")));
        }
        return new ProtocolConfig("dev" + d, "modbus", "tcp:127.0.0.1:" + server.ports().get(d),
                Map.of("unit-id", Integer.toString(UNIT)), List.of(), List.of(), channels);
    }

    private static SalClient client(Agent agent) throws IOException {
        return SalClient.builder().host("127.0.0.1").port(agent.port()).clientName("bench-devices").connect();
    }

    /** Waits until a read of each sensor is OK: every device lane has connected. */
    private static void awaitConnected(SalClient client, List<String> sensors) throws InterruptedException,
            ExecutionException, TimeoutException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (String s : sensors) {
            Reading r;
            while ((r = client.execute(s, "read", null).get(10, TimeUnit.SECONDS)).status() != Reading.Status.OK) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the agent cannot read " + s + ": " + r.error());
                }
                Thread.sleep(50);
            }
        }
    }

    private void record(String cell, int rep, Map<String, Double> metrics) {
        measurements.add(new DevicesResult.Measurement(cell, rep, metrics));
    }

    /** The first few readings in error of each cell go into the report, beside their counts. */
    private final Map<String, AtomicLong> errorsNoted = new ConcurrentHashMap<>();

    private void noteError(String cell, Reading r) {
        if (errorsNoted.computeIfAbsent(cell, c -> new AtomicLong()).incrementAndGet() <= 3) {
            synchronized (errorReadings) {
                errorReadings.add(cell + ": " + r.sensorId() + " read " + r.status() + ": " + r.error());
            }
        }
    }

    private static Long number(Reading r) {
        Value v = r.value();
        if (v instanceof Value.Int i) {
            return i.value();
        }
        if (v instanceof Value.Num n) {
            return Math.round(n.value());
        }
        return null;
    }

    private static String message(Throwable e) {
        Throwable t = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** j2mod's own client on one device: the ceiling, and the latency cell's writer. */
    private static final class Master implements AutoCloseable {
        private final ModbusTCPMaster master;

        Master(int port) throws ModbusException {
            try {
                master = new ModbusTCPMaster("127.0.0.1", port, MODBUS_TIMEOUT_MS, false);
                master.connect();
            } catch (ModbusException e) {
                throw e;
            } catch (Exception e) {
                throw new ModbusException("cannot connect to the device on port " + port + ": " + e.getMessage());
            }
        }

        /** Reads register 0 back to back for {@code nanos}: reads per second; {@code reads[0]} gets the count. */
        double readFor(long nanos, long[] reads) throws ModbusException {
            long start = System.nanoTime();
            long end = start + nanos;
            long n = 0;
            long now;
            do {
                master.readMultipleRegisters(UNIT, 0, 1);
                n++;
                now = System.nanoTime();
            } while (now < end);
            reads[0] = n;
            return n / ((now - start) / 1e9);
        }

        void write(int address, int value) throws ModbusException {
            master.writeSingleRegister(UNIT, address, new SimpleRegister(value));
        }

        @Override
        public void close() {
            master.disconnect();
        }
    }
}
