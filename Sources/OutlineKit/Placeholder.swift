public enum OutlineKitPlaceholder {}
