package org.salgate.codec.gzip;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;

/**
 * Gzip around another codec, named {@code INNER+gzip}. Decoding stops at {@link #MAX_INFLATED_BYTES}
 * so that a small frame cannot inflate into an unbounded one.
 */
public class GzipCodec implements Codec {

    /** The suffix of every gzip codec's name. */
    public static final String SUFFIX = "+gzip";
    /** The largest message a gzip frame may inflate to. */
    public static final int MAX_INFLATED_BYTES = 64 * 1024 * 1024;

    private final Codec inner;
    private final String name;

    public GzipCodec(Codec inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.name = inner.name() + SUFFIX;
    }

    /** The codec inside the gzip. */
    public Codec inner() {
        return inner;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public byte[] encode(Message message) {
        byte[] plain = inner.encode(message);
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, plain.length / 4));
        try (GZIPOutputStream gzip = new GZIPOutputStream(out, 8192)) {
            gzip.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException("gzip failed in memory", e);
        }
        return out.toByteArray();
    }

    @Override
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        if (length < 2 || bytes[offset] != (byte) 0x1f || bytes[offset + 1] != (byte) 0x8b) {
            throw new CodecException("not a valid " + name + " message: it does not start with the gzip magic");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length * 4));
        try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(bytes, offset, length), 8192)) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = gzip.read(buffer)) > 0) {
                if (out.size() + n > MAX_INFLATED_BYTES) {
                    throw new CodecException("not a valid " + name + " message: it inflates beyond "
                            + MAX_INFLATED_BYTES + " bytes");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException | RuntimeException e) {
            throw new CodecException("not a valid " + name + " message: broken gzip data (" + e.getMessage() + ")", e);
        }
        byte[] plain = out.toByteArray();
        return inner.decode(plain, 0, plain.length);
    }

    @Override
    public String toString() {
        return name;
    }
}
