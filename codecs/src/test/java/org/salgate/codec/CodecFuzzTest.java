package org.salgate.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Codecs;

/**
 * Fuzzes every codec's decoder with what a client could send after its hello: any input must
 * decode to a message or fail with a {@link CodecException}; nothing else may escape, hang or
 * exhaust memory. Without {@code JAZZER_FUZZ} each test replays its inputs under
 * {@code CodecFuzzTestInputs/<test>}. Jazzer fuzzes one test per run: {@code .ci/run} fuzzes
 * {@link #anyCodec}, which reaches every codec, for a bounded time with the {@code fuzz} profile.
 * Protobuf, the hello's codec, is fuzzed with the frames in the SPI module.
 */
class CodecFuzzTest {

    private static final List<String> CODECS = List.of("json", "msgpack", "xml", "xml-stax", "xml-dom", "java",
            "json+gzip", "protobuf+gzip");

    /** The last byte picks the codec (FuzzedDataProvider takes single values from the end), the rest is its input. */
    @FuzzTest(maxDuration = "90s")
    void anyCodec(FuzzedDataProvider data) {
        String codec = CODECS.get(Math.floorMod(data.consumeByte(), CODECS.size()));
        decode(codec, data.consumeRemainingAsBytes());
    }

    private static void decode(String codec, byte[] input) {
        Codec c = Codecs.byName(codec);
        try {
            c.decode(input, 0, input.length);
        } catch (CodecException e) {
            // the documented, clear refusal
        }
    }

    @FuzzTest(maxDuration = "25s")
    void json(byte[] input) {
        decode("json", input);
    }

    @FuzzTest(maxDuration = "25s")
    void msgpack(byte[] input) {
        decode("msgpack", input);
    }

    @FuzzTest(maxDuration = "25s")
    void xml(byte[] input) {
        decode("xml", input);
    }

    @FuzzTest(maxDuration = "25s")
    void xmlStax(byte[] input) {
        decode("xml-stax", input);
    }

    @FuzzTest(maxDuration = "25s")
    void xmlDom(byte[] input) {
        decode("xml-dom", input);
    }

    @FuzzTest(maxDuration = "25s")
    void java(byte[] input) {
        decode("java", input);
    }

    /** The gzip layer, around JSON; the inner codecs are fuzzed on their own above. */
    @FuzzTest(maxDuration = "25s")
    void jsonGzip(byte[] input) {
        decode("json+gzip", input);
    }
}
