package lib;

import com.digitalpetri.modbus.client.ModbusTcpClient;
import com.digitalpetri.modbus.pdu.ReadHoldingRegistersRequest;
import com.digitalpetri.modbus.tcp.client.NettyTcpClientTransport;
import com.ghgande.j2mod.modbus.facade.ModbusTCPMaster;
import com.ghgande.j2mod.modbus.procimg.SimpleProcessImage;
import com.ghgande.j2mod.modbus.procimg.SimpleRegister;
import com.ghgande.j2mod.modbus.slave.ModbusSlaveFactory;
import java.lang.management.ManagementFactory;

/**
 * The two Modbus client libraries the project could build on, each reading 10 holding registers
 * back to back for a fixed time against the same server (j2mod's slave in another JVM), their
 * turns alternating (ABBA), with the client process's CPU time per request.
 *
 *   java -cp CP lib.ModbusLibraries server PORT          (the server)
 *   java -cp CP lib.ModbusLibraries client PORT SECONDS ROUNDS
 */
public final class ModbusLibraries {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]);
        if (args[0].equals("server")) {
            SimpleProcessImage image = new SimpleProcessImage(1);
            for (int i = 0; i < 100; i++) {
                image.addRegister(new SimpleRegister(i));
            }
            var slave = ModbusSlaveFactory.createTCPSlave(java.net.InetAddress.getLoopbackAddress(), port, 4, false);
            slave.addProcessImage(1, image);
            slave.open();
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        long seconds = Long.parseLong(args[2]);
        int rounds = Integer.parseInt(args[3]);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ModbusTCPMaster j2mod = new ModbusTCPMaster("127.0.0.1", port, 1000, true);
        j2mod.setRetries(0);
        j2mod.connect();
        ModbusTcpClient petri = ModbusTcpClient.create(NettyTcpClientTransport.create(c -> {
            c.setHostname("127.0.0.1");
            c.setPort(port);
        }));
        petri.connect();
        System.out.println("round,library,requests_per_s,client_cpu_us_per_request");
        for (int r = 1; r <= rounds; r++) {
            String[] order = r % 2 == 1 ? new String[] {"j2mod", "digitalpetri"} : new String[] {"digitalpetri", "j2mod"};
            for (String lib : order) {
                long end = System.nanoTime() + seconds * 1_000_000_000L;
                long cpu0 = os.getProcessCpuTime();
                long n = 0;
                long t0 = System.nanoTime();
                while (System.nanoTime() < end) {
                    if (lib.equals("j2mod")) {
                        j2mod.readMultipleRegisters(1, 0, 10);
                    } else {
                        petri.readHoldingRegisters(1, new ReadHoldingRegistersRequest(0, 10));
                    }
                    n++;
                }
                double s = (System.nanoTime() - t0) / 1e9;
                double cpuPer = (os.getProcessCpuTime() - cpu0) / 1e3 / n;
                System.out.printf("%d,%s,%.0f,%.1f%n", r, lib, n / s, cpuPer);
            }
        }
        j2mod.disconnect();
        petri.disconnect();
        System.exit(0);
    }
}
