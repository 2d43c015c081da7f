package org.salgate.bench.devices;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.salgate.bench.sample.ProcStat;

/**
 * The devices as pymodbus's Modbus TCP server ({@code modbus_bench_server.py}, one Python process
 * serving every port), counting requests in the process and telling the count when asked on its
 * standard input.
 */
final class PymodbusDeviceServer implements DeviceServer {

    static final String PYTHON = "/usr/bin/python3";
    private static final String SCRIPT = "modbus_bench_server.py";
    private static final long READY_SECONDS = 30;

    private final Process process;
    private final BufferedReader lines;
    private final Writer commands;
    private final List<Integer> ports;
    private final ProcStat stat;

    PymodbusDeviceServer(int devices, int registers, Path workDir) throws IOException {
        Path script = workDir.resolve(SCRIPT);
        try (InputStream in = PymodbusDeviceServer.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IOException(SCRIPT + " is missing from the bench's resources");
            }
            Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        ports = DeviceServer.freePorts(devices);
        List<String> cmd = new ArrayList<>(List.of(PYTHON, script.toString(), Integer.toString(registers)));
        ports.forEach(p -> cmd.add(Integer.toString(p)));
        process = new ProcessBuilder(cmd).redirectError(workDir.resolve("pymodbus-server.log").toFile()).start();
        lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        stat = new ProcStat(process.pid());
        String first = readLine(READY_SECONDS);
        if (!"ready".equals(first)) {
            close();
            throw new IOException("the pymodbus server did not start (" + PYTHON + " with python3-pymodbus; see "
                    + workDir.resolve("pymodbus-server.log") + "): it said " + first);
        }
    }

    @Override
    public List<Integer> ports() {
        return ports;
    }

    @Override
    public synchronized long requests() throws IOException {
        commands.write("count\n");
        commands.flush();
        String line = readLine(10);
        if (line == null || !line.startsWith("count ")) {
            throw new IOException("the pymodbus server did not tell its count: " + line);
        }
        return Long.parseLong(line.substring(6).strip());
    }

    @Override
    public long cpuNanos() throws IOException {
        return stat.read().cpuNanos();
    }

    @Override
    public String describe() {
        return "pymodbus (Debian python3-pymodbus, " + PYTHON + ") ModbusTcpServer, every device in one Python"
                + " process (pid " + process.pid() + "), bench resource " + SCRIPT;
    }

    /** The server's next line, or null when it ended or said nothing within {@code seconds}. */
    private String readLine(long seconds) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!lines.ready()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                return lines.ready() ? lines.readLine() : null;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the pymodbus server", e);
            }
        }
        return lines.readLine();
    }

    @Override
    public void close() {
        try {
            commands.close(); // the server ends when its standard input closes
        } catch (IOException e) {
            // it is going anyway
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
