using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.Tests;

/// <summary>
/// Arguments that do not fit the hub method must not close the connection: they come back as an
/// <see cref="InvocationBindingFailureMessage"/>, which the hub answers with an error completion.
/// </summary>
public class BindingTests
{
    [Theory]
    [InlineData(typeof(long), 7L)]
    [InlineData(typeof(int), 7)]
    [InlineData(typeof(short), (short)7)]
    [InlineData(typeof(sbyte), (sbyte)7)]
    [InlineData(typeof(ulong), 7UL)]
    [InlineData(typeof(uint), 7U)]
    [InlineData(typeof(ushort), (ushort)7)]
    [InlineData(typeof(byte), (byte)7)]
    [InlineData(typeof(double), 7d)]
    [InlineData(typeof(float), 7f)]
    [InlineData(typeof(object), 7L)]
    [InlineData(typeof(int?), 7)]
    [InlineData(typeof(double?), 7d)]
    public void Integers_bind_to_every_numeric_parameter_type(Type parameterType, object expected)
    {
        Assert.Equal(expected, BindOne(parameterType, w => w.Int(7)));
    }

    [Theory]
    [InlineData(typeof(long), 9007199254740994L)]
    [InlineData(typeof(ulong), 9007199254740994UL)]
    [InlineData(typeof(int), -3)]
    public void Integral_floats_bind_to_integer_parameters(Type parameterType, object expected)
    {
        // JS sends integers outside the safe range as float64.
        Assert.Equal(expected, BindOne(parameterType, w => w.Double(Convert.ToDouble(expected))));
    }

    [Theory]
    [InlineData(typeof(long?))]
    [InlineData(typeof(bool?))]
    [InlineData(typeof(string))]
    [InlineData(typeof(byte[]))]
    [InlineData(typeof(object))]
    public void Nil_binds_to_nullable_and_reference_parameters(Type parameterType)
    {
        Assert.Null(BindOne(parameterType, w => w.Nil()));
    }

    [Fact]
    public void Other_kinds_bind_to_their_types()
    {
        Assert.Equal(true, BindOne(typeof(bool), w => w.Bool(true)));
        Assert.Equal("héllo", BindOne(typeof(string), w => w.Str("héllo")));
        Assert.Equal(new byte[] { 1, 2, 3 }, BindOne(typeof(byte[]), w => w.Bin([1, 2, 3])));
        Assert.Equal(2.5f, BindOne(typeof(float), w => w.Double(2.5)));
        Assert.Equal(ulong.MaxValue, BindOne(typeof(ulong), w => w.UInt(ulong.MaxValue)));
        Assert.Equal<object?>(["a", 1L], Assert.IsType<object?[]>(BindOne(typeof(object), w => w.Array(2).Str("a").Int(1))));
    }

    [Theory]
    [InlineData(typeof(long), "string")]
    [InlineData(typeof(int), "out of int")]
    [InlineData(typeof(byte), "negative")]
    [InlineData(typeof(long), "fraction")]
    [InlineData(typeof(long), "nil")]
    [InlineData(typeof(string), "integer")]
    [InlineData(typeof(bool), "integer")]
    [InlineData(typeof(byte[]), "string")]
    [InlineData(typeof(DateTime), "integer")]
    [InlineData(typeof(int[]), "integer")]
    public void Mismatched_values_are_binding_failures(Type parameterType, string sent)
    {
        var frame = Invocation("Probe", w => w.Array(1), sent switch
        {
            "string" => w => w.Str("x"),
            "out of int" => w => w.Int(1L << 40),
            "negative" => w => w.Int(-1),
            "fraction" => w => w.Double(1.5),
            "nil" => w => w.Nil(),
            _ => w => w.Int(1),
        });

        var failure = Wire.ParseOne<InvocationBindingFailureMessage>(frame, new TestBinder().With("Probe", parameterType));

        Assert.Equal("Probe", failure.Target);
        Assert.Equal("9", failure.InvocationId);
        var error = Assert.IsType<HubException>(failure.BindingFailure.SourceException);
        Assert.Contains("argument 1", error.Message);
    }

    [Fact]
    public void Wrong_argument_count_is_a_binding_failure()
    {
        var frame = Invocation("Echo", w => w.Array(1), w => w.Int(1));

        var failure = Wire.ParseOne<InvocationBindingFailureMessage>(frame);

        Assert.Contains("1 argument(s) but the target expects 2", failure.BindingFailure.SourceException.Message);
    }

    [Fact]
    public void Unknown_target_is_a_binding_failure()
    {
        var frame = Invocation("NoSuchMethod", w => w.Array(0), _ => { });

        var failure = Wire.ParseOne<InvocationBindingFailureMessage>(frame);

        Assert.Equal("NoSuchMethod", failure.Target);
        Assert.Equal("Method does not exist.", failure.BindingFailure.SourceException.Message);
    }

    [Fact]
    public void A_binding_failure_leaves_the_next_frame_readable()
    {
        var bad = Invocation("Echo", w => w.Array(2), w => w.Str("not a number").Str("x"));
        var good = Wire.Write(new InvocationMessage("Echo", [1L, "x"]));
        var input = new System.Buffers.ReadOnlySequence<byte>([.. bad, .. good]);

        Assert.True(Wire.Protocol.TryParseMessage(ref input, new TestBinder(), out var first));
        Assert.True(Wire.Protocol.TryParseMessage(ref input, new TestBinder(), out var second));

        Assert.IsType<InvocationBindingFailureMessage>(first);
        Assert.Equal<object?>([1L, "x"], Assert.IsType<InvocationMessage>(second).Arguments);
    }

    [Fact]
    public void Truncated_arguments_are_malformed_not_a_binding_failure()
    {
        // The argument array claims two items but the frame ends after the first.
        var frame = Invocation("Echo", w => w.Array(2), w => w.Int(1));

        Assert.Throws<InvalidDataException>(() => Wire.ParseOne(frame));
    }

    private static object? BindOne(Type parameterType, Action<MessagePackWriterBox> writeValue)
    {
        var frame = Invocation("Probe", w => w.Array(1), writeValue);
        var message = Wire.ParseOne(frame, new TestBinder().With("Probe", parameterType));
        return Assert.IsType<InvocationMessage>(message).Arguments[0];
    }

    private static byte[] Invocation(string target, Action<MessagePackWriterBox> argumentsHeader, Action<MessagePackWriterBox> arguments) =>
        Wire.Frame(w =>
        {
            w.Array(5).Int(1).Map(0).Str("9").Str(target);
            argumentsHeader(w);
            arguments(w);
        });
}
