package org.salgate.bench.devices;

import com.ghgande.j2mod.modbus.ModbusException;
import com.ghgande.j2mod.modbus.procimg.DigitalIn;
import com.ghgande.j2mod.modbus.procimg.DigitalOut;
import com.ghgande.j2mod.modbus.procimg.FIFO;
import com.ghgande.j2mod.modbus.procimg.File;
import com.ghgande.j2mod.modbus.procimg.InputRegister;
import com.ghgande.j2mod.modbus.procimg.ProcessImage;
import com.ghgande.j2mod.modbus.procimg.Register;
import com.ghgande.j2mod.modbus.procimg.SimpleProcessImage;
import com.ghgande.j2mod.modbus.procimg.SimpleRegister;
import com.ghgande.j2mod.modbus.slave.ModbusSlave;
import com.ghgande.j2mod.modbus.slave.ModbusSlaveFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The devices as j2mod's Modbus TCP slaves in the bench's JVM, one per port, each serving a
 * {@link SimpleProcessImage} through a {@link Counted} image that counts the register reads.
 */
final class JvmDeviceServer implements DeviceServer {

    /**
     * Connection handlers per device: j2mod gives each connection one for its whole life, and a
     * device has at most the agent's, the ceiling client's and the latency cell's writer at once.
     */
    static final int CONNECTIONS_PER_DEVICE = 4;

    private final List<ModbusSlave> slaves = new ArrayList<>();
    private final List<Integer> ports;
    private final AtomicLong requests = new AtomicLong();

    JvmDeviceServer(int devices, int registers) throws IOException {
        ports = DeviceServer.freePorts(devices);
        try {
            for (int port : ports) {
                SimpleProcessImage image = new SimpleProcessImage(1);
                for (int a = 0; a < registers; a++) {
                    image.addRegister(new SimpleRegister(a));
                }
                ModbusSlave slave = ModbusSlaveFactory.createTCPSlave(InetAddress.getLoopbackAddress(), port,
                        CONNECTIONS_PER_DEVICE, false);
                slave.addProcessImage(1, new Counted(image, requests));
                slaves.add(slave);
                slave.open();
            }
        } catch (ModbusException e) {
            close();
            throw new IOException("cannot start j2mod's Modbus TCP slave: " + e.getMessage(), e);
        }
    }

    @Override
    public List<Integer> ports() {
        return ports;
    }

    @Override
    public long requests() {
        return requests.get();
    }

    @Override
    public long cpuNanos() {
        return -1;
    }

    @Override
    public String describe() {
        return "j2mod " + j2modVersion() + " ModbusSlaveFactory.createTCPSlave in the bench's JVM (SimpleProcessImage, "
                + CONNECTIONS_PER_DEVICE + " connection handlers per device)";
    }

    /** j2mod's version from its Maven properties, which its jar carries (and the bench's fat jar keeps). */
    private static String j2modVersion() {
        try (java.io.InputStream in = ModbusSlave.class.getResourceAsStream(
                "/META-INF/maven/com.ghgande/j2mod/pom.properties")) {
            if (in != null) {
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                return p.getProperty("version", "(version unknown)");
            }
        } catch (IOException e) {
            // unknown below
        }
        return "(version unknown)";
    }

    @Override
    public void close() {
        for (ModbusSlave s : slaves) {
            s.close();
        }
        slaves.clear();
    }

    /**
     * A device's image: the registers of a {@link SimpleProcessImage}, counting each read of a
     * register range, which j2mod makes once per read request (function 3), however many registers
     * it asks for.
     */
    private record Counted(ProcessImage image, AtomicLong requests) implements ProcessImage {

        @Override
        public Register[] getRegisterRange(int offset, int count) {
            requests.incrementAndGet();
            return image.getRegisterRange(offset, count);
        }

        @Override
        public Register getRegister(int ref) {
            return image.getRegister(ref);
        }

        @Override
        public int getRegisterCount() {
            return image.getRegisterCount();
        }

        @Override
        public DigitalOut[] getDigitalOutRange(int offset, int count) {
            return image.getDigitalOutRange(offset, count);
        }

        @Override
        public DigitalOut getDigitalOut(int ref) {
            return image.getDigitalOut(ref);
        }

        @Override
        public int getDigitalOutCount() {
            return image.getDigitalOutCount();
        }

        @Override
        public DigitalIn[] getDigitalInRange(int offset, int count) {
            return image.getDigitalInRange(offset, count);
        }

        @Override
        public DigitalIn getDigitalIn(int ref) {
            return image.getDigitalIn(ref);
        }

        @Override
        public int getDigitalInCount() {
            return image.getDigitalInCount();
        }

        @Override
        public InputRegister[] getInputRegisterRange(int offset, int count) {
            return image.getInputRegisterRange(offset, count);
        }

        @Override
        public InputRegister getInputRegister(int ref) {
            return image.getInputRegister(ref);
        }

        @Override
        public int getInputRegisterCount() {
            return image.getInputRegisterCount();
        }

        @Override
        public File getFile(int ref) {
            return image.getFile(ref);
        }

        @Override
        public File getFileByNumber(int ref) {
            return image.getFileByNumber(ref);
        }

        @Override
        public int getFileCount() {
            return image.getFileCount();
        }

        @Override
        public FIFO getFIFO(int ref) {
            return image.getFIFO(ref);
        }

        @Override
        public FIFO getFIFOByAddress(int ref) {
            return image.getFIFOByAddress(ref);
        }

        @Override
        public int getFIFOCount() {
            return image.getFIFOCount();
        }
    }
}
