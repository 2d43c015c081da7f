package org.salgate.bench.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The connected clients of one cell; closing it closes them all. */
public final class ClientGroup implements AutoCloseable {

    /** Opens client number {@code index}. */
    @FunctionalInterface
    public interface ChannelFactory {
        BenchChannel open(int index) throws IOException;
    }

    private final List<BenchChannel> channels;

    private ClientGroup(List<BenchChannel> channels) {
        this.channels = List.copyOf(channels);
    }

    /**
     * Connects {@code count} clients one after the other.
     *
     * @throws IOException if one cannot connect (those already connected are closed)
     */
    public static ClientGroup open(ChannelFactory factory, int count) throws IOException {
        List<BenchChannel> list = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                list.add(factory.open(i));
            }
        } catch (IOException | RuntimeException e) {
            list.forEach(BenchChannel::close);
            throw new IOException("client " + (list.size() + 1) + " of " + count + " could not connect: "
                    + e.getMessage(), e);
        }
        return new ClientGroup(list);
    }

    public List<BenchChannel> channels() {
        return channels;
    }

    public int size() {
        return channels.size();
    }

    @Override
    public void close() {
        channels.forEach(BenchChannel::close);
    }
}
