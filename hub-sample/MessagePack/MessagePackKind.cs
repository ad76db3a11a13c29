namespace HubSample.MessagePack;

/// <summary>The families of MessagePack values, as far as this protocol tells them apart.</summary>
public enum MessagePackKind
{
    Nil,
    Boolean,
    Integer,
    Float,
    String,
    Binary,
    Array,
    Map,
    Extension,
}
